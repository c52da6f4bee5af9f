"""Run NVIDIA's nvdisasm on raw SM90 instruction words and return its text, one line per word.

Shared by the encoding oracle tests and the bit-probing tool. Never skips: a missing nvdisasm is
an error (the oracle tests must fail, not pass vacuously).
"""
import os, re, shutil, struct, subprocess, tempfile

LINE = re.compile(r'^\s*/\*([0-9a-f]{4,})\*/\s+(.*?)\s*/\* (0x[0-9a-f]{16}) \*/\s*$')
ERR_ADDR = re.compile(r'at address 0x([0-9a-f]+)')
# A known-valid filler (NOP) used to replace words nvdisasm rejects, so one batch can continue.
NOP = (0x0000000000007918, 0x000fc00000000000)


def find_nvdisasm():
    cand = os.environ.get('NVDISASM') or os.path.expanduser('~/.cache/cuda-disasm/nvdisasm')
    if not os.access(cand, os.X_OK):
        cand = shutil.which('nvdisasm') or ''
    if not cand or not os.access(cand, os.X_OK):
        raise SystemExit('nvdisasm not found: set NVDISASM or run ../shared/tools/fetch-nvdisasm.sh')
    return cand


def _run(words, arch, nvdisasm):
    with tempfile.NamedTemporaryFile(suffix='.bin') as f:
        f.write(b''.join(struct.pack('<QQ', lo, hi) for lo, hi in words))
        f.flush()
        r = subprocess.run([nvdisasm, '-b', arch, '-hex', f.name], capture_output=True, text=True)
    return r


def parse_listing(stdout):
    """Yields (address, text) for each instruction of an `nvdisasm -hex` listing."""
    for line in stdout.splitlines():
        m = LINE.match(line)
        if m:
            yield int(m.group(1), 16), m.group(2)


def disasm(words, arch='SM90', nvdisasm=None):
    """Returns a list with nvdisasm's text for each (lo, hi) word, or None where it is rejected.

    One nvdisasm run per batch; a rejected word is replaced by a NOP and the batch re-run.
    """
    nvdisasm = nvdisasm or find_nvdisasm()
    words = list(words)
    bad = set()
    while True:
        cur = [NOP if i in bad else w for i, w in enumerate(words)]
        r = _run(cur, arch, nvdisasm)
        if r.returncode == 0:
            break
        # nvdisasm names every rejected word of the batch: replace them all before re-running.
        idxs = {int(a, 16) // 16 for a in ERR_ADDR.findall(r.stderr)}
        if not idxs or idxs & bad or max(idxs) >= len(words):
            raise RuntimeError('nvdisasm failed: ' + r.stderr.strip())
        bad |= idxs
    out = [None] * len(words)
    for addr, text in parse_listing(r.stdout):
        i = addr // 16
        if i < len(out) and i not in bad:
            out[i] = text
    return out
