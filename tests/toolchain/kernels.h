// Host-side entry points of the device code in scale.cu and add.cu.
#pragma once

void launchAxpy(float *y, float a, float x);
void launchAddInts(int *out, int a, int b);
