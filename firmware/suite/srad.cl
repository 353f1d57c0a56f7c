// Speckle-reducing anisotropic diffusion, one step (after Rodinia srad, kernels 1 and 2, in
// one launch of one work-group, a barrier between them): every work-item takes one pixel of a
// rows x cols image. The image is J = exp(I / 255) of the input I, with exp approximated by
// 1 + x + x^2 / 2 (no exp in the subset; |x| < 0.4 here). Kernel 1: the four differences to
// the neighbours (edges repeat the pixel), the diffusion coefficient c from the normalised
// gradient and Laplacian and q0sqr (the host's speckle scale), clamped to [0, 1]. Kernel 2:
// J += lambda / 4 * (c dN + c_south dS + c dW + c_east dE).
// @grid 256
// @wg 256
// @args float:grid zero:grid zero:grid u32:16 u32:16 f32:0.05 f32:0.5
static float img(__global const float *in, uint k) {
  float x = in[k] / 255.0f;
  return 1.0f + x + 0.5f * x * x;
}

__kernel void srad(__global const float *in, __global float *out, __global float *c,
                   uint rows, uint cols, float q0sqr, float lambda) {
  uint k = get_global_id(0);
  uint i = k / cols, j = k % cols;
  bool on = i < rows;
  float dN = 0, dS = 0, dW = 0, dE = 0, jc = 1;
  if (on) {
    jc = img(in, k);
    dN = img(in, i > 0 ? k - cols : k) - jc;
    dS = img(in, i + 1 < rows ? k + cols : k) - jc;
    dW = img(in, j > 0 ? k - 1 : k) - jc;
    dE = img(in, j + 1 < cols ? k + 1 : k) - jc;
    float g2 = (dN * dN + dS * dS + dW * dW + dE * dE) / (jc * jc);
    float l = (dN + dS + dW + dE) / jc;
    float num = 0.5f * g2 - (1.0f / 16.0f) * (l * l);
    float den = 1 + 0.25f * l;
    float qsqr = num / (den * den);
    den = (qsqr - q0sqr) / (q0sqr * (1 + q0sqr));
    float cc = 1.0f / (1.0f + den);
    c[k] = fmin(fmax(cc, 0.0f), 1.0f);
  }
  barrier(CLK_GLOBAL_MEM_FENCE);
  if (on) {
    float cS = c[i + 1 < rows ? k + cols : k], cE = c[j + 1 < cols ? k + 1 : k];
    float d = c[k] * dN + cS * dS + c[k] * dW + cE * dE;
    out[k] = jc + 0.25f * lambda * d;
  }
}
