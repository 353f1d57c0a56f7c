// Nearest neighbour (after Rodinia nn): the Euclidean distance of every record
// (lat[i], lng[i]) to the target (tlat, tlng), for i < n.
// @grid 1024
// @wg 256
// @args float:grid float:grid zero:grid f32:30.5 f32:-12.25 u32:1000
__kernel void nn(__global const float *lat, __global const float *lng, __global float *dist,
                 float tlat, float tlng, uint n) {
  uint i = get_global_id(0);
  if (i < n) {
    float dx = lat[i] - tlat, dy = lng[i] - tlng;
    dist[i] = sqrt(dx * dx + dy * dy);
  }
}
