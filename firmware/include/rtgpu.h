/* rtgpu's OpenCL C device header (docs/opencl.md).
 *
 * `rtgpu run KERNEL.cl` passes it to clang with `-include`, so a kernel uses the OpenCL C
 * work-item, synchronisation, math and atomic built-ins below without any #include. clang
 * declares these built-ins itself; without AMD's device library (-nogpulib) they would be
 * calls to missing functions. The definitions here are static inline functions over clang's
 * AMDGPU builtins, so every call becomes straight-line code.
 *
 * Work-item functions read the work-item id registers (v0), the work-group id SGPRs and the
 * HSA dispatch packet the driver writes (work-group and grid sizes). rtgpu launches are
 * one-dimensional: dimension 1 and 2 have size 1 and id 0, and the global offset is 0.
 */

typedef struct {
  ushort header, setup, workgroup_size_x, workgroup_size_y, workgroup_size_z, reserved0;
  uint grid_size_x, grid_size_y, grid_size_z;
  uint private_segment_size, group_segment_size;
  ulong kernel_object, kernarg_address, reserved2, completion_signal;
} __rtgpu_dispatch_packet;

#define __RTGPU_FN static __attribute__((overloadable, always_inline, const))
#define __RTGPU_INLINE static __attribute__((overloadable, always_inline))
#define __RTGPU_PACKET ((__constant __rtgpu_dispatch_packet *)__builtin_amdgcn_dispatch_ptr())

__RTGPU_FN uint get_work_dim(void) { return 1; }

__RTGPU_FN size_t get_local_id(uint d) {
  return d == 0 ? __builtin_amdgcn_workitem_id_x()
       : d == 1 ? __builtin_amdgcn_workitem_id_y()
       : d == 2 ? __builtin_amdgcn_workitem_id_z() : 0;
}

__RTGPU_FN size_t get_group_id(uint d) {
  return d == 0 ? __builtin_amdgcn_workgroup_id_x()
       : d == 1 ? __builtin_amdgcn_workgroup_id_y()
       : d == 2 ? __builtin_amdgcn_workgroup_id_z() : 0;
}

__RTGPU_FN size_t get_local_size(uint d) {
  return d == 0 ? __RTGPU_PACKET->workgroup_size_x
       : d == 1 ? __RTGPU_PACKET->workgroup_size_y
       : d == 2 ? __RTGPU_PACKET->workgroup_size_z : 1;
}

__RTGPU_FN size_t get_global_size(uint d) {
  return d == 0 ? __RTGPU_PACKET->grid_size_x
       : d == 1 ? __RTGPU_PACKET->grid_size_y
       : d == 2 ? __RTGPU_PACKET->grid_size_z : 1;
}

__RTGPU_FN size_t get_num_groups(uint d) {
  return (uint)get_global_size(d) / (uint)get_local_size(d);
}

/* 32-bit arithmetic: rtgpu grids are below 2^24 work-items. */
__RTGPU_FN size_t get_global_id(uint d) {
  return (uint)get_group_id(d) * (uint)get_local_size(d) + (uint)get_local_id(d);
}

__RTGPU_FN size_t get_global_offset(uint d) { return 0; }

/* Work-group barrier: release fence, s_barrier, acquire fence (both memory spaces). */
__RTGPU_INLINE void barrier(cl_mem_fence_flags flags) {
  __builtin_amdgcn_fence(__ATOMIC_RELEASE, "workgroup");
  __builtin_amdgcn_s_barrier();
  __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "workgroup");
}

__RTGPU_FN float sqrt(float x) { return __builtin_sqrtf(x); }
__RTGPU_FN float fabs(float x) { return __builtin_fabsf(x); }
__RTGPU_FN float fmin(float a, float b) { return __builtin_fminf(a, b); }
__RTGPU_FN float fmax(float a, float b) { return __builtin_fmaxf(a, b); }
__RTGPU_FN float mad(float a, float b, float c) { return a * b + c; }
__RTGPU_FN int min(int a, int b) { return a < b ? a : b; }
__RTGPU_FN int max(int a, int b) { return a > b ? a : b; }
__RTGPU_FN uint min(uint a, uint b) { return a < b ? a : b; }
__RTGPU_FN uint max(uint a, uint b) { return a > b ? a : b; }

/* Atomics on local memory (ds_add_u32): relaxed, their results unused by the suite. */
__RTGPU_INLINE uint atomic_add(volatile __local uint *p, uint v) {
  return __atomic_fetch_add(p, v, __ATOMIC_RELAXED);
}
__RTGPU_INLINE int atomic_add(volatile __local int *p, int v) {
  return __atomic_fetch_add(p, v, __ATOMIC_RELAXED);
}
__RTGPU_INLINE uint atomic_inc(volatile __local uint *p) {
  return __atomic_fetch_add(p, 1u, __ATOMIC_RELAXED);
}
__RTGPU_INLINE int atomic_inc(volatile __local int *p) {
  return __atomic_fetch_add(p, 1, __ATOMIC_RELAXED);
}
