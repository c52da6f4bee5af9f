// Predicate logic: setp with boolean combinations, selp, predicate-to-register and back.
__global__ void k_pred(int *o, const int *i, const unsigned *u, const long long *l, const float *f, float *g) {
  int a = i[0], b = i[1], c = i[2], d = i[3]; long long x = l[0], y = l[1]; unsigned p = u[0], q = u[1];
  bool c0 = a < b, c1 = c >= d, c2 = p > q, c3 = x == y, c4 = f[0] < f[1], c5 = (unsigned long long)x <= (unsigned long long)y;
  o[0] = (c0 && c1) ? a : b; o[1] = (c0 || c2) ? c : d; o[2] = (c1 ^ c3) ? 5 : 9; o[3] = (c4 && !c5) ? a : c;
  o[4] = c0 + c1 + c2 + c3 + c4 + c5; o[5] = (a != b) && (c <= d) && (x > y) && (f[2] != f[3]);
  o[6] = (p >= q) | ((x < 0) << 1) | ((y != 0) << 2); g[0] = c0 ? f[0] : f[1]; g[1] = a > 0 ? 1.0f : -1.0f;
  int r;
  asm("{.reg .pred a, b; setp.lt.s32 a|b, %1, %2; selp.s32 %0, 3, 4, b;}" : "=r"(r) : "r"(a), "r"(b)); o[7] = r;
  asm("{.reg .pred a, b; setp.lt.s32 a, %1, %2; setp.eq.or.s32 b, %1, 0, a; selp.s32 %0, 3, 4, b;}" : "=r"(r) : "r"(a), "r"(b)); o[8] = r;
  asm("{.reg .pred a, b; setp.gt.u32 a, %1, %2; setp.ne.xor.u32 b, %1, 7, !a; selp.s32 %0, 3, 4, b;}" : "=r"(r) : "r"(a), "r"(b)); o[9] = r;
  asm("{.reg .pred a, b, c, d; setp.gt.u32 a, %1, %2; setp.ne.u32 b, %1, 7; and.pred c, a, b; or.pred d, c, !a; xor.pred c, d, b; not.pred d, c; selp.s32 %0, 3, 4, d;}" : "=r"(r) : "r"(a), "r"(b)); o[10] = r;
  bool arr[8]; for (int k = 0; k < 8; ++k) arr[k] = i[k + 4] > k;
  int acc = 0; for (int k = 0; k < 8; ++k) acc = acc * 3 + (arr[(k + a) & 7] ? 1 : 0); o[11] = acc;
}
