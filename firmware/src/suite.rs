//! The OpenCL C suite (`firmware/suite/*.cl`): the host-side reference of every kernel, which
//! `rtgpu run KERNEL.cl --check` compares the GPU's buffers with.
//!
//! A reference gets the launch's inputs (dimensions, scalar arguments, initial buffer
//! contents) and returns the contents every buffer argument must have afterwards. Integer
//! kernels must match exactly; float kernels within [`FLOAT_TOLERANCE`] (relative, at least
//! that much absolute), since OpenCL C leaves the compiler room in how it rounds (fused or
//! separate multiply-add, the order of sums).

use crate::launch::{Arg, Dims};

/// The relative tolerance of a float result (absolute below 1.0).
pub const FLOAT_TOLERANCE: f32 = 1e-5;

/// What a reference reads: the launch as the kernel saw it.
#[derive(Clone, Debug)]
pub struct Inputs {
    /// The launch's dimensions.
    pub dims: Dims,
    /// The scalar arguments, in argument order (bits as passed).
    pub scalars: Vec<u32>,
    /// The buffer arguments' initial contents, in argument order.
    pub buffers: Vec<Vec<u32>>,
}

impl Inputs {
    /// The launch's inputs: `args` with `buffers` (the buffers' initial contents).
    pub fn new(dims: Dims, args: &[Arg], buffers: Vec<Vec<u32>>) -> Inputs {
        let scalars = args
            .iter()
            .filter_map(|a| match a {
                Arg::Scalar(v) => Some(*v),
                Arg::Buffer { .. } => None,
            })
            .collect();
        Inputs {
            dims,
            scalars,
            buffers,
        }
    }

    /// Buffer `i` as floats.
    fn floats(&self, i: usize) -> Vec<f32> {
        self.buffers[i].iter().map(|&w| f32::from_bits(w)).collect()
    }

    /// Buffer `i` as signed integers.
    fn ints(&self, i: usize) -> Vec<i32> {
        self.buffers[i].iter().map(|&w| w as i32).collect()
    }

    /// Scalar `i` as an unsigned count.
    fn count(&self, i: usize) -> usize {
        self.scalars[i] as usize
    }

    /// Scalar `i` as a float.
    fn float(&self, i: usize) -> f32 {
        f32::from_bits(self.scalars[i])
    }

    /// The buffers, with buffer `i` replaced by `out`.
    fn with(&self, i: usize, out: Vec<u32>) -> Vec<Vec<u32>> {
        let mut all = self.buffers.clone();
        all[i] = out;
        all
    }
}

/// A suite kernel's reference.
#[derive(Clone, Copy, Debug)]
pub struct Reference {
    /// The kernel's name (its `__kernel` function).
    pub name: &'static str,
    /// Its results are floats (compared within [`FLOAT_TOLERANCE`]).
    pub float: bool,
    /// The expected buffers after the launch.
    pub run: fn(&Inputs) -> Vec<Vec<u32>>,
}

/// Every suite kernel's reference.
pub const REFERENCES: &[Reference] = &[
    Reference {
        name: "vector_add",
        float: true,
        run: vector_add,
    },
    Reference {
        name: "saxpy",
        float: true,
        run: saxpy,
    },
    Reference {
        name: "reduce",
        float: false,
        run: reduce,
    },
    Reference {
        name: "nn",
        float: true,
        run: nn,
    },
    Reference {
        name: "pathfinder",
        float: false,
        run: pathfinder,
    },
    Reference {
        name: "hotspot",
        float: true,
        run: hotspot,
    },
    Reference {
        name: "sgemm",
        float: true,
        run: sgemm,
    },
    Reference {
        name: "sgemm_db",
        float: true,
        run: sgemm_db,
    },
    Reference {
        name: "histogram",
        float: false,
        run: histogram,
    },
    Reference {
        name: "bfs",
        float: false,
        run: bfs,
    },
    Reference {
        name: "backprop",
        float: true,
        run: backprop,
    },
    Reference {
        name: "nw",
        float: false,
        run: nw,
    },
    Reference {
        name: "gaussian",
        float: true,
        run: gaussian,
    },
    Reference {
        name: "lud",
        float: true,
        run: lud,
    },
    Reference {
        name: "kmeans",
        float: false,
        run: kmeans,
    },
    Reference {
        name: "srad",
        float: true,
        run: srad,
    },
];

/// The reference of kernel `name`, if it is a suite kernel.
pub fn reference(name: &str) -> Option<&'static Reference> {
    REFERENCES.iter().find(|r| r.name == name)
}

/// The first element where `got` differs from `want`: (buffer, index, got, want).
pub type Difference = (usize, usize, u32, u32);

impl Reference {
    /// Compares the GPU's buffers with the reference's; `None` when they agree.
    pub fn check(&self, inputs: &Inputs, got: &[Vec<u32>]) -> Option<Difference> {
        let want = (self.run)(inputs);
        for (b, (g, w)) in got.iter().zip(&want).enumerate() {
            let bad = (0..g.len().max(w.len())).find(|&i| match (g.get(i), w.get(i)) {
                (Some(&x), Some(&y)) => !self.same(x, y),
                _ => true,
            });
            if let Some(i) = bad {
                return Some((
                    b,
                    i,
                    g.get(i).copied().unwrap_or(0),
                    w.get(i).copied().unwrap_or(0),
                ));
            }
        }
        None
    }

    fn same(&self, got: u32, want: u32) -> bool {
        if !self.float || got == want {
            return got == want;
        }
        let (g, w) = (f32::from_bits(got), f32::from_bits(want));
        (g - w).abs() <= FLOAT_TOLERANCE * w.abs().max(1.0)
    }
}

fn bits(v: impl IntoIterator<Item = f32>) -> Vec<u32> {
    v.into_iter().map(f32::to_bits).collect()
}

fn vector_add(x: &Inputs) -> Vec<Vec<u32>> {
    let (a, b, n) = (x.floats(0), x.floats(1), x.count(0));
    let mut c = x.floats(2);
    for i in 0..n.min(c.len()) {
        c[i] = a[i] + b[i];
    }
    x.with(2, bits(c))
}

fn saxpy(x: &Inputs) -> Vec<Vec<u32>> {
    let (v, a, n) = (x.floats(0), x.float(0), x.count(1));
    let mut y = x.floats(1);
    for i in 0..n.min(y.len()) {
        y[i] += a * v[i];
    }
    x.with(1, bits(y))
}

fn reduce(x: &Inputs) -> Vec<Vec<u32>> {
    let input = x.ints(0);
    let wg = x.dims.wg as usize;
    let sums = input
        .chunks(wg)
        .take(x.dims.groups() as usize)
        .map(|c| c.iter().fold(0i32, |s, &v| s.wrapping_add(v)) as u32);
    let mut out = x.buffers[1].clone();
    for (o, s) in out.iter_mut().zip(sums) {
        *o = s;
    }
    x.with(1, out)
}

fn nn(x: &Inputs) -> Vec<Vec<u32>> {
    let (lat, lng) = (x.floats(0), x.floats(1));
    let (tlat, tlng, n) = (x.float(0), x.float(1), x.count(2));
    let mut d = x.floats(2);
    for i in 0..n.min(d.len()) {
        let (dx, dy) = (lat[i] - tlat, lng[i] - tlng);
        d[i] = (dx * dx + dy * dy).sqrt();
    }
    x.with(2, bits(d))
}

fn pathfinder(x: &Inputs) -> Vec<Vec<u32>> {
    let (wall, prev, cols) = (x.ints(0), x.ints(1), x.count(0));
    let mut next = x.buffers[2].clone();
    for i in 0..cols.min(next.len()) {
        let lo = i.saturating_sub(1);
        let hi = (i + 1).min(cols - 1);
        let best = prev[lo..=hi].iter().min().copied().unwrap_or(prev[i]);
        next[i] = wall[i].wrapping_add(best) as u32;
    }
    x.with(2, next)
}

fn hotspot(x: &Inputs) -> Vec<Vec<u32>> {
    let (t, p) = (x.floats(0), x.floats(1));
    let (w, h) = (x.count(0), x.count(1));
    let mut out = x.floats(2);
    for i in 0..(w * h).min(out.len()) {
        let (cx, cy) = (i % w, i / w);
        let c = t[i];
        let n = t[if cy > 0 { i - w } else { i }];
        let s = t[if cy + 1 < h { i + w } else { i }];
        let e = t[if cx + 1 < w { i + 1 } else { i }];
        let west = t[if cx > 0 { i - 1 } else { i }];
        out[i] = c + 0.125 * (n + s + e + west - 4.0 * c) + 0.5 * p[i];
    }
    x.with(2, bits(out))
}

fn sgemm(x: &Inputs) -> Vec<Vec<u32>> {
    let (a, b) = (x.floats(0), x.floats(1));
    let (n, alpha, beta) = (x.count(0), x.float(1), x.float(2));
    let mut c = x.floats(2);
    let items = (x.dims.grid as usize).min(c.len()).min(n * n);
    for (i, ci) in c.iter_mut().enumerate().take(items) {
        let (row, col) = (i / n, i % n);
        let acc = (0..n).fold(0.0f32, |acc, k| acc + a[row * n + k] * b[k * n + col]);
        *ci = alpha * acc + beta * *ci;
    }
    x.with(2, bits(c))
}

/// The double-buffered SGEMM: every row of A (grid / n rows) times B.
fn sgemm_db(x: &Inputs) -> Vec<Vec<u32>> {
    let (a, b) = (x.floats(0), x.floats(1));
    let (n, alpha, beta) = (x.count(0).max(1), x.float(1), x.float(2));
    let mut c = x.floats(2);
    let items = (x.dims.grid as usize).min(c.len()).min(a.len() / n * n);
    for (i, ci) in c.iter_mut().enumerate().take(items) {
        let (row, col) = (i / n, i % n);
        let acc = (0..n).fold(0.0f32, |acc, k| acc + a[row * n + k] * b[k * n + col]);
        *ci = alpha * acc + beta * *ci;
    }
    x.with(2, bits(c))
}

fn histogram(x: &Inputs) -> Vec<Vec<u32>> {
    let wg = x.dims.wg as usize;
    let mut bins = x.buffers[1].clone();
    for (g, chunk) in x.buffers[0].chunks(wg).enumerate() {
        for &v in chunk {
            if let Some(b) = bins.get_mut(g * 16 + (v & 15) as usize) {
                *b += 1;
            }
        }
    }
    x.with(1, bins)
}

/// The work-items of the launch that exist for `n` elements: `0..min(grid, n)`.
fn items(x: &Inputs, n: usize) -> std::ops::Range<usize> {
    0..(x.dims.grid as usize).min(n)
}

/// `a / b` as clang-14 compiles it for gfx803 (`fdiv` with 2.5 ulp: a reciprocal, scaled
/// for |b| > 2^96), with the reciprocal correctly rounded as the interpreter computes it.
fn fdiv(a: f32, b: f32) -> f32 {
    let s = if b.abs() > f32::from_bits(0x6f80_0000) {
        f32::from_bits(0x2f80_0000)
    } else {
        1.0
    };
    s * (a * (1.0 / (b * s)))
}

fn bfs(x: &Inputs) -> Vec<Vec<u32>> {
    let (graph, visited) = (x.ints(0), x.ints(2));
    let (n, level) = (x.count(0), x.scalars[1] as i32);
    let (mut mask, mut out) = (x.ints(1), x.ints(3));
    for v in items(x, n) {
        if mask[v] <= 0 {
            continue;
        }
        mask[v] = 0;
        let deg = (graph[v] & 7) as usize;
        for &e in graph.iter().skip(n + 8 * v).take(deg) {
            let u = (e as u32 % n as u32) as usize;
            if visited[u] <= 0 {
                out[u] = level.wrapping_add(1);
                out[n + u] = 1;
            }
        }
    }
    let words = |v: Vec<i32>| v.into_iter().map(|w| w as u32).collect::<Vec<_>>();
    let mut all = x.with(1, words(mask));
    all[3] = words(out);
    all
}
fn backprop(x: &Inputs) -> Vec<Vec<u32>> {
    let (input, w) = (x.floats(0), x.floats(1));
    let (n_in, n_out) = (x.count(0), x.count(1));
    let mut out = x.floats(2);
    for j in items(x, n_out.min(out.len())) {
        let s = (0..n_in).fold(0.0f32, |s, k| s + w[k * n_out + j] * input[k]);
        out[j] = 0.5 + fdiv(0.5 * s, 1.0 + s.abs());
    }
    x.with(2, bits(out))
}

fn nw(x: &Inputs) -> Vec<Vec<u32>> {
    let (score, sim) = (x.ints(0), x.ints(1));
    let (n, penalty, d) = (x.count(0), x.scalars[1] as i32, x.count(2));
    let w = n + 1;
    let mut out = x.buffers[0].clone();
    for t in items(x, n) {
        let i = t + 1;
        if i >= d || d - i > n {
            continue;
        }
        let j = d - i;
        let diag = score[(i - 1) * w + j - 1].wrapping_add(sim[i * w + j]);
        let up = score[(i - 1) * w + j].wrapping_sub(penalty);
        let left = score[i * w + j - 1].wrapping_sub(penalty);
        out[i * w + j] = diag.max(up).max(left) as u32;
    }
    x.with(0, out)
}

fn gaussian(x: &Inputs) -> Vec<Vec<u32>> {
    let (a0, b0) = (x.floats(0), x.floats(1));
    let (n, t) = (x.count(0), x.count(1));
    let (mut a, mut b, mut m) = (a0.clone(), b0.clone(), x.floats(2));
    let w = n - t + 1;
    for id in items(x, usize::MAX) {
        let (i, j) = (t + 1 + id / w, t + id % w);
        if i >= n {
            continue;
        }
        let f = fdiv(a0[i * n + t], a0[t * n + t]);
        if j == t {
            m[i * n + t] = f;
        } else if j == n {
            b[i] = b0[i] - f * b0[t];
        } else {
            a[i * n + j] = a0[i * n + j] - f * a0[t * n + j];
        }
    }
    let mut all = x.with(0, bits(a));
    all[1] = bits(b);
    all[2] = bits(m);
    all
}

fn lud(x: &Inputs) -> Vec<Vec<u32>> {
    const B: usize = 4;
    let a0 = x.floats(0);
    let (n, o) = (x.count(0), x.count(1));
    let dia = |i: usize, j: usize| a0[(o + i) * n + o + j];
    let mut a = a0.clone();
    let m = n - o - B;
    for t in items(x, 2 * m) {
        let (g, h) = (t / 32, t % 32);
        if h < 16 {
            let c = o + B + g * 16 + h;
            let mut r: Vec<f32> = (0..B).map(|i| a0[(o + i) * n + c]).collect();
            for i in 1..B {
                for j in 0..i {
                    r[i] -= dia(i, j) * r[j];
                }
                a[(o + i) * n + c] = r[i];
            }
        } else {
            let row = o + B + g * 16 + (h - 16);
            let mut v: Vec<f32> = (0..B).map(|i| a0[row * n + o + i]).collect();
            for i in 0..B {
                for j in 0..i {
                    v[i] -= dia(j, i) * v[j];
                }
                v[i] = fdiv(v[i], dia(i, i));
                a[row * n + o + i] = v[i];
            }
        }
    }
    x.with(0, bits(a))
}

fn kmeans(x: &Inputs) -> Vec<Vec<u32>> {
    let (pts, ctr) = (x.floats(0), x.floats(1));
    let (n, k) = (x.count(0), x.count(1));
    let mut member = x.buffers[2].clone();
    for i in items(x, n.min(member.len())) {
        let (px, py) = (pts[2 * i], pts[2 * i + 1]);
        let (mut best, mut idx) = (0.0f32, -1i32);
        for c in 0..k {
            let (dx, dy) = (px - ctr[2 * c], py - ctr[2 * c + 1]);
            let dist = dx * dx + dy * dy;
            if idx < 0 || dist < best {
                best = dist;
                idx = c as i32;
            }
        }
        member[i] = idx as u32;
    }
    x.with(2, member)
}

/// srad's image value of input pixel `v`: exp(v / 255) as the kernel approximates it,
/// 1 + x + x² / 2.
fn srad_img(v: f32) -> f32 {
    let x = fdiv(v, 255.0);
    1.0 + x + 0.5 * x * x
}

/// srad's diffusion coefficient of pixel k (Rodinia srad kernel 1) and its four differences
/// dN, dS, dW, dE.
fn srad_coefficient(
    img: &[f32],
    (rows, cols): (usize, usize),
    k: usize,
    q0: f32,
) -> (f32, [f32; 4]) {
    let (i, j) = (k / cols, k % cols);
    let jc = img[k];
    let at = |n: usize| img[n] - jc;
    let d = [
        at(if i > 0 { k - cols } else { k }),
        at(if i + 1 < rows { k + cols } else { k }),
        at(if j > 0 { k - 1 } else { k }),
        at(if j + 1 < cols { k + 1 } else { k }),
    ];
    let g2 = fdiv(d.iter().map(|x| x * x).sum(), jc * jc);
    let l = fdiv(d.iter().sum(), jc);
    let num = 0.5 * g2 - (1.0 / 16.0) * (l * l);
    let den = 1.0 + 0.25 * l;
    let qsqr = fdiv(num, den * den);
    let den = fdiv(qsqr - q0, q0 * (1.0 + q0));
    (fdiv(1.0, 1.0 + den).clamp(0.0, 1.0), d)
}

fn srad(x: &Inputs) -> Vec<Vec<u32>> {
    let (rows, cols, q0, lambda) = (x.count(0), x.count(1), x.float(2), x.float(3));
    let img: Vec<f32> = x.floats(0).into_iter().map(srad_img).collect();
    let (mut out, mut c) = (x.floats(1), x.floats(2));
    let n = items(x, (rows * cols).min(img.len()));
    let coef: Vec<(f32, [f32; 4])> = n
        .clone()
        .map(|k| srad_coefficient(&img, (rows, cols), k, q0))
        .collect();
    for k in n.clone() {
        c[k] = coef[k].0;
    }
    for k in n {
        let (i, j) = (k / cols, k % cols);
        let (ck, [dn, ds, dw, de]) = coef[k];
        let cs = c[if i + 1 < rows { k + cols } else { k }];
        let ce = c[if j + 1 < cols { k + 1 } else { k }];
        out[k] = img[k] + 0.25 * lambda * (ck * dn + cs * ds + ck * dw + ce * de);
    }
    let mut all = x.with(1, bits(out));
    all[2] = bits(c);
    all
}

#[cfg(test)]
mod tests {
    use super::*;

    fn inputs(scalars: &[u32], buffers: &[&[u32]]) -> Inputs {
        Inputs {
            dims: Dims { grid: 4, wg: 2 },
            scalars: scalars.to_vec(),
            buffers: buffers.iter().map(|b| b.to_vec()).collect(),
        }
    }

    #[test]
    fn reduce_sums_each_group() {
        let x = inputs(&[], &[&[1, 2, 3, 4], &[0, 0]]);
        assert_eq!(reduce(&x)[1], [3, 7]);
        let r = reference("reduce").unwrap();
        assert_eq!(r.check(&x, &[vec![1, 2, 3, 4], vec![3, 7]]), None);
        assert_eq!(
            r.check(&x, &[vec![1, 2, 3, 4], vec![3, 8]]),
            Some((1, 1, 8, 7))
        );
    }

    #[test]
    fn bfs_expands_the_frontier_to_unvisited_neighbours() {
        // n = 4. Node 0 (frontier, degree 2) has edges to 1 (unvisited) and 2 (visited);
        // node 1 is not in the frontier.
        let mut graph = vec![0u32; 4 + 32];
        graph[0] = 2;
        graph[4] = 1;
        graph[5] = 2;
        let x = Inputs {
            dims: Dims { grid: 4, wg: 4 },
            scalars: vec![4, 3],
            buffers: vec![graph, vec![1, 0, 0, 0], vec![0, 0, 1, 0], vec![0; 8]],
        };
        let out = bfs(&x);
        assert_eq!(out[1], [0, 0, 0, 0]);
        assert_eq!(out[3], [0, 4, 0, 0, 0, 1, 0, 0]);
    }

    #[test]
    fn nw_takes_the_best_of_three_moves() {
        // n = 1: the cell (1, 1) of a 2 x 2 matrix, on diagonal 2.
        let x = Inputs {
            dims: Dims { grid: 1, wg: 1 },
            scalars: vec![1, 2, 2],
            buffers: vec![vec![0, -2i32 as u32, -2i32 as u32, 0], vec![0, 0, 0, 5]],
        };
        assert_eq!(nw(&x)[0][3], 5);
    }

    /// A flat image has no gradient: the coefficient is 1 / (1 - 1 / (1 + q0)) clamped to 1,
    /// and the update leaves the image as it is; a bright pixel in a dark row diffuses.
    /// Mutations caught: the clamp dropped (c = 21 on the flat image), and the update's sign
    /// flipped (the spike grows).
    #[test]
    fn srad_keeps_a_flat_image_and_smooths_a_spike() {
        let flat = inputs(
            &[1, 4, 0.05f32.to_bits(), 0.5f32.to_bits()],
            &[&[0; 4], &[0; 4], &[0; 4]],
        );
        let out = srad(&flat);
        assert!(out[1].iter().all(|&w| f32::from_bits(w) == 1.0), "{out:?}");
        assert!(out[2].iter().all(|&w| f32::from_bits(w) == 1.0), "{out:?}");
        let spike = 50.0f32.to_bits();
        let x = inputs(
            &[1, 4, 0.05f32.to_bits(), 0.5f32.to_bits()],
            &[&[0, spike, 0, 0], &[0; 4], &[0; 4]],
        );
        let out: Vec<f32> = srad(&x)[1].iter().map(|&w| f32::from_bits(w)).collect();
        let jc = srad_img(50.0);
        assert!(out[1] < jc && out[0] > 1.0, "{out:?}");
    }

    #[test]
    fn pathfinder_takes_the_least_neighbour() {
        let x = inputs(&[4], &[&[10, 10, 10, 10], &[5, 1, 7, 3], &[0; 4]]);
        assert_eq!(pathfinder(&x)[2], [11, 11, 11, 13]);
    }

    #[test]
    fn float_results_compare_within_the_tolerance() {
        let r = reference("vector_add").unwrap();
        let one = 1.0f32.to_bits();
        let x = inputs(&[1], &[&[one], &[one], &[0]]);
        let near = (2.0f32 + 1e-6).to_bits();
        assert_eq!(r.check(&x, &[vec![one], vec![one], vec![near]]), None);
        let far = 2.001f32.to_bits();
        assert!(r.check(&x, &[vec![one], vec![one], vec![far]]).is_some());
        assert!(reference("nope").is_none());
    }
}
