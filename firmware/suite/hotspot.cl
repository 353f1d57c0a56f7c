// Hotspot-style stencil (after Rodinia hotspot): one step of heat diffusion on a w x h grid,
// out = temp + 0.125 * (the four neighbours - 4 temp) + 0.5 * power; edges repeat the cell.
// @grid 1024
// @wg 256
// @args float:grid float:grid zero:grid u32:32 u32:32
__kernel void hotspot(__global const float *temp, __global const float *power,
                      __global float *out, uint w, uint h) {
  uint i = get_global_id(0);
  if (i >= w * h) return;
  uint x = i % w, y = i / w;
  float c = temp[i];
  float n = temp[y > 0 ? i - w : i], s = temp[y + 1 < h ? i + w : i];
  float e = temp[x + 1 < w ? i + 1 : i], west = temp[x > 0 ? i - 1 : i];
  out[i] = c + 0.125f * (n + s + e + west - 4.0f * c) + 0.5f * power[i];
}
