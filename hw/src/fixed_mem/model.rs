//! The reference model of the fixed-latency memory, written from the contract of
//! [`crate::fixed_mem`]: the words as a vector, and each port's responses kept by the cycle
//! in which they are due. It also serves on its own: [`FixedMemoryModel::new`] with the
//! number of words, [`FixedMemoryModel::words`] / [`FixedMemoryModel::words_mut`] for the
//! memory image, [`FixedMemoryModel::outputs`] and [`FixedMemoryModel::clock`] per cycle.

use super::{effective_latency, FixedMemIn, FixedMemOut, LANES, MAX_LATENCY, SMEM_DWORDS};
use std::collections::BTreeMap;

/// A vector response waiting for its cycle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct VectorResponse {
    tag: u32,
    store: bool,
    mask: u64,
    data: [u32; LANES],
}

/// A scalar response waiting for its cycle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct ScalarResponse {
    tag: u32,
    store: bool,
    n: u8,
    data: [u32; SMEM_DWORDS],
}

/// The cycle model of the fixed-latency memory.
#[derive(Clone, Debug)]
pub struct FixedMemoryModel {
    /// The words.
    words: Vec<u32>,
    /// The largest latency.
    depth: usize,
    /// Cycles since creation: the current cycle.
    cycle: u64,
    /// Vector responses by the cycle they are due in.
    vector: BTreeMap<u64, VectorResponse>,
    /// Scalar responses by the cycle they are due in.
    scalar: BTreeMap<u64, ScalarResponse>,
    /// The driver's read register.
    read_data: u32,
}

impl FixedMemoryModel {
    /// A memory of `words` dwords (a power of two), every one 0, nothing in flight:
    /// `FixedMemory<A>` with `words` = `2^A`.
    pub fn new(words: usize) -> Self {
        Self::with_depth(words, MAX_LATENCY)
    }

    /// [`FixedMemoryModel::new`] with latencies up to `depth` (`FixedMemory<A, D>` with
    /// `depth` = `D`).
    pub fn with_depth(words: usize, depth: usize) -> Self {
        assert!(words.is_power_of_two(), "a power of two words");
        Self {
            words: vec![0; words],
            depth,
            cycle: 0,
            vector: BTreeMap::new(),
            scalar: BTreeMap::new(),
            read_data: 0,
        }
    }

    /// The words.
    pub fn words(&self) -> &[u32] {
        &self.words
    }

    /// The words, writable (a memory image loaded beside the driver's port).
    pub fn words_mut(&mut self) -> &mut [u32] {
        &mut self.words
    }

    /// Requests in flight: (vector, scalar).
    pub fn in_flight(&self) -> (usize, usize) {
        (self.vector.len(), self.scalar.len())
    }

    /// The word at index `addr` (its low bits).
    fn word(&self, addr: u32) -> u32 {
        self.words[addr as usize & (self.words.len() - 1)]
    }

    /// The outputs of the current cycle (they do not depend on its inputs).
    pub fn outputs(&self) -> FixedMemOut {
        let mut out = FixedMemOut {
            read_data: self.read_data,
            ..FixedMemOut::default()
        };
        if let Some(v) = self.vector.get(&self.cycle) {
            out.vresp = true;
            out.vresp_tag = v.tag;
            out.vresp_store = v.store;
            out.vresp_mask = v.mask;
            out.vresp_data = v.data;
        }
        if let Some(s) = self.scalar.get(&self.cycle) {
            out.sresp = true;
            out.sresp_tag = s.tag;
            out.sresp_n = s.n;
            out.sresp_store = s.store;
            out.sresp_data = s.data;
        }
        out
    }

    /// A vector request's response (its loads read the words as they are now).
    fn vector_response(&self, i: &FixedMemIn) -> VectorResponse {
        let load = |l: usize| i.vmask >> l & 1 == 1 && !i.vstore;
        VectorResponse {
            tag: i.vtag,
            store: i.vstore,
            mask: i.vmask,
            data: std::array::from_fn(|l| if load(l) { self.word(i.vaddr[l]) } else { 0 }),
        }
    }

    /// A scalar request's response.
    fn scalar_response(&self, i: &FixedMemIn) -> ScalarResponse {
        let read = |k: usize| k < usize::from(i.sn) && !i.sstore;
        ScalarResponse {
            tag: i.stag,
            store: i.sstore,
            n: i.sn,
            data: std::array::from_fn(|k| match read(k) {
                true => self.word(i.saddr.wrapping_add(k as u32)),
                false => 0,
            }),
        }
    }

    /// The writes of the edge: the driver's, the scalar store's, then the vector store's lanes
    /// in ascending order (the last write of a word stays).
    fn write(&mut self, i: &FixedMemIn) {
        let m = self.words.len() - 1;
        if i.write_enable {
            self.words[i.write_address as usize & m] = i.write_data;
        }
        if i.sreq && i.sstore && !i.reset {
            self.words[i.saddr as usize & m] = i.sdata;
        }
        if i.vreq && i.vstore && !i.reset {
            for l in (0..LANES).filter(|&l| i.vmask >> l & 1 == 1) {
                self.words[i.vaddr[l] as usize & m] = i.vdata[l];
            }
        }
    }

    /// Clocks the rising edge that ends the cycle with inputs `i`.
    pub fn clock(&mut self, i: &FixedMemIn) {
        let now = self.cycle;
        self.vector.remove(&now);
        self.scalar.remove(&now);
        if i.reset {
            self.vector.clear();
            self.scalar.clear();
        } else {
            if i.vreq {
                let r = self.vector_response(i);
                self.vector
                    .insert(now + effective_latency(i.flat_lat, self.depth), r);
            }
            if i.sreq {
                let r = self.scalar_response(i);
                self.scalar
                    .insert(now + effective_latency(i.smem_lat, self.depth), r);
            }
        }
        self.read_data = self.word(i.read_address);
        self.write(i);
        self.cycle += 1;
    }
}

impl crate::block::Clocked for FixedMemoryModel {
    type In = FixedMemIn;
    type Out = FixedMemOut;

    /// The outputs are registers: they do not depend on the inputs.
    fn outputs(&self, _input: &FixedMemIn) -> FixedMemOut {
        FixedMemoryModel::outputs(self)
    }

    fn step(&mut self, input: &FixedMemIn) {
        self.clock(input);
    }
}

#[cfg(test)]
mod tests;
