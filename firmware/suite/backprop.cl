// Back-propagation (after Rodinia backprop), a layer's forward pass: output unit j takes the
// weighted sum s = sum over k < n_in of w[k * n_out + j] * in[k], squashed into (0, 1) by
// the sigmoid-shaped 0.5 + 0.5 s / (1 + |s|) (the subset has no exp).
// @grid 128
// @wg 64
// @args float:32 float:4096 zero:grid u32:32 u32:128
__kernel void backprop(__global const float *in, __global const float *w, __global float *out,
                       uint n_in, uint n_out) {
  uint j = get_global_id(0);
  if (j >= n_out) return;
  float s = 0.0f;
  for (uint k = 0; k < n_in; k++) s += w[k * n_out + j] * in[k];
  out[j] = 0.5f + 0.5f * s / (1.0f + fabs(s));
}
