// Host-side entry points of the device code in scale.cu and squares.cu.
#pragma once

void launchSaxpy(float a, const float *x, float *y, int n);
void launchSquares(int *out, int n);
