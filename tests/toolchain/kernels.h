// Host-side entry points of the device code in scale.cu and add.cu (device pointers, n elements).
#pragma once

void launchAxpy(float *y, const float *x, float a, int n);
void launchAddInts(int *out, const int *a, const int *b, int n);
