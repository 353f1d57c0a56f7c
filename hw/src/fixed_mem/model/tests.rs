//! The model against the contract's examples.

use super::*;
use crate::fixed_mem::MAX_LATENCY;

/// A vector request of `lanes` (lane, word, value).
fn vector(store: bool, tag: u32, lat: u16, lanes: &[(usize, u32, u32)]) -> FixedMemIn {
    let mut i = FixedMemIn {
        vreq: true,
        vstore: store,
        vtag: tag,
        flat_lat: lat,
        ..FixedMemIn::default()
    };
    for &(l, a, d) in lanes {
        i.vmask |= 1 << l;
        i.vaddr[l] = a;
        i.vdata[l] = d;
    }
    i
}

/// A scalar load of `n` words from `addr`.
fn scalar(addr: u32, n: u8, tag: u32, lat: u16) -> FixedMemIn {
    FixedMemIn {
        sreq: true,
        saddr: addr,
        sn: n,
        stag: tag,
        smem_lat: lat,
        ..FixedMemIn::default()
    }
}

/// Clocks `n` idle cycles, returning the outputs of each.
fn idle(m: &mut FixedMemoryModel, n: usize) -> Vec<FixedMemOut> {
    (0..n)
        .map(|_| {
            let o = m.outputs();
            m.clock(&FixedMemIn::default());
            o
        })
        .collect()
}

/// Lanes naming one word: the highest lane's value stays (fails if the lanes were written in
/// descending order).
#[test]
fn the_highest_lane_wins() {
    let mut m = FixedMemoryModel::new(16);
    m.clock(&vector(
        true,
        1,
        4,
        &[(3, 5, 30), (60, 5, 600), (10, 5, 100)],
    ));
    assert_eq!(m.words()[5], 600);
}

/// A load reads the words as they are in its cycle, before the writes of its edge: the
/// driver's write and a vector store in the same cycle are not seen by a vector or scalar
/// load of that cycle, and are by one of the next cycle.
#[test]
fn a_load_reads_before_the_writes_of_its_edge() {
    let mut m = FixedMemoryModel::new(16);
    m.words_mut()[7] = 70;
    let mut i = vector(false, 2, 1, &[(0, 7, 0), (1, 8, 0)]);
    (i.write_enable, i.write_address, i.write_data) = (true, 7, 71);
    i.sreq = true;
    (i.saddr, i.sn, i.smem_lat) = (8, 1, 1);
    m.words_mut()[8] = 80;
    m.clock(&i);
    let o = m.outputs();
    assert!(o.vresp && o.sresp);
    assert_eq!((o.vresp_data[0], o.vresp_data[1]), (70, 80));
    assert_eq!(o.sresp_data, [80, 0, 0, 0]);
    assert_eq!(m.words()[7], 71);
    // A store and a scalar load of the same word in one cycle: the load sees the old value.
    let mut j = vector(true, 3, 1, &[(9, 8, 81)]);
    (j.sreq, j.saddr, j.sn, j.smem_lat, j.stag) = (true, 8, 1, 1, 4);
    m.clock(&j);
    assert_eq!(m.outputs().sresp_data[0], 80);
    assert_eq!(m.words()[8], 81);
}

/// A driver write and a vector store to one word at one edge: the store's value stays; the
/// driver's read gives the word one cycle later, as it was in the read's cycle.
#[test]
fn the_vector_store_beats_the_driver_and_the_driver_reads_a_cycle_late() {
    let mut m = FixedMemoryModel::new(16);
    let mut i = vector(true, 0, 2, &[(4, 3, 44)]);
    (i.write_enable, i.write_address, i.write_data) = (true, 3, 99);
    i.read_address = 3;
    m.clock(&i);
    assert_eq!(m.words()[3], 44);
    assert_eq!(m.outputs().read_data, 0);
    m.clock(&FixedMemIn {
        read_address: 3,
        ..FixedMemIn::default()
    });
    assert_eq!(m.outputs().read_data, 44);
}

/// A response comes exactly in cycle k + L, and in no other cycle (fails with a response one
/// cycle early or late); latency 0 counts as 1 and 1000 as 64.
#[test]
fn a_response_comes_exactly_at_k_plus_l() {
    for (lat, eff) in [
        (5u16, 5u64),
        (1, 1),
        (0, 1),
        (64, 64),
        (1000, MAX_LATENCY as u64),
    ] {
        let mut m = FixedMemoryModel::new(16);
        let (mut v, mut s) = (Vec::new(), Vec::new());
        for c in 0..70u64 {
            let o = m.outputs();
            if o.vresp {
                v.push(c);
            }
            if o.sresp {
                s.push(c);
            }
            m.clock(&match c {
                0 => vector(false, 9, lat, &[(2, 1, 0)]),
                1 => scalar(1, 2, 8, lat),
                _ => FixedMemIn::default(),
            });
        }
        assert_eq!((v, s), (vec![eff], vec![1 + eff]), "latency {lat}");
    }
    // With 16 slots, latencies clamp to 16.
    let mut m = FixedMemoryModel::with_depth(16, 16);
    m.clock(&scalar(0, 1, 1, 40));
    assert!(idle(&mut m, 16)
        .iter()
        .enumerate()
        .all(|(c, o)| o.sresp == (c == 15)));
}

/// The response carries the request's tag, kind, mask and count, the loaded words in the
/// mask's lanes only, and nothing when there is no response.
#[test]
fn the_response_carries_the_request() {
    let mut m = FixedMemoryModel::new(16);
    m.words_mut()
        .iter_mut()
        .enumerate()
        .for_each(|(w, x)| *x = 100 + w as u32);
    let mut i = vector(false, 0xBEEF, 2, &[(0, 1, 0), (63, 17, 0)]);
    i.vaddr[5] = 3; // not in the mask: 0
    m.clock(&i);
    m.clock(&scalar(15, 3, 0xCAFE, 1));
    let o = m.outputs();
    assert!(o.vresp && o.sresp);
    assert_eq!(
        (o.vresp_tag, o.vresp_store, o.vresp_mask),
        (0xBEEF, false, 1 | 1 << 63)
    );
    assert_eq!(
        (o.vresp_data[0], o.vresp_data[5], o.vresp_data[63]),
        (101, 0, 101)
    );
    // Scalar words wrap: 15, 0, 1; past the count 0.
    assert_eq!((o.sresp_tag, o.sresp_n), (0xCAFE, 3));
    assert_eq!(o.sresp_data, [115, 100, 101, 0]);
    m.clock(&vector(true, 7, 1, &[(1, 2, 5)]));
    let o = m.outputs();
    assert!(o.vresp && o.vresp_store && !o.sresp);
    assert_eq!(o.vresp_data, [0; LANES]);
    let quiet = FixedMemOut {
        read_data: 100,
        ..FixedMemOut::default()
    };
    assert_eq!(idle(&mut m, 2)[1], quiet);
}

/// Reset drops the requests in flight (no response comes for them), ignores a request of its
/// own cycle, and keeps the words; the response due in the reset cycle is still shown.
#[test]
fn reset_drops_the_requests_in_flight_and_keeps_the_words() {
    let mut m = FixedMemoryModel::new(16);
    m.clock(&vector(true, 1, 3, &[(0, 2, 22)]));
    m.clock(&vector(false, 2, 5, &[(0, 2, 0)]));
    m.clock(&scalar(2, 1, 3, 10));
    assert_eq!(m.in_flight(), (2, 1));
    let mut r = vector(true, 4, 2, &[(0, 2, 33)]);
    r.reset = true;
    assert!(m.outputs().vresp && m.outputs().vresp_tag == 1);
    m.clock(&r);
    assert_eq!(m.in_flight(), (0, 0));
    assert!(idle(&mut m, 70).iter().all(|o| !o.vresp && !o.sresp));
    assert_eq!(m.words()[2], 22);
}

/// With a latency change while requests are in flight, a request due in the cycle of an
/// earlier one replaces it.
#[test]
fn a_later_request_due_in_the_same_cycle_replaces_the_earlier() {
    let mut m = FixedMemoryModel::new(16);
    m.clock(&vector(false, 1, 3, &[(0, 0, 0)]));
    m.clock(&vector(false, 2, 2, &[(0, 0, 0)]));
    let out = idle(&mut m, 5);
    let tags: Vec<u32> = out
        .iter()
        .filter(|o| o.vresp)
        .map(|o| o.vresp_tag)
        .collect();
    assert_eq!(tags, vec![2]);
}

/// A scalar store writes its word at the edge of its cycle (after the driver's write, before
/// a vector store's lanes) and answers `smem_lat` cycles later as a store, without words (fails
/// if the order of the writes or the response's kind changed).
#[test]
fn a_scalar_store_writes_at_its_edge_and_answers_as_a_store() {
    let mut m = FixedMemoryModel::new(16);
    let store = |addr, data| FixedMemIn {
        sstore: true,
        sdata: data,
        ..scalar(addr, 1, 7, 2)
    };
    let mut both = FixedMemIn {
        write_enable: true,
        write_address: 4,
        write_data: 1,
        ..store(4, 2)
    };
    m.clock(&both);
    assert_eq!(m.words()[4], 2, "the scalar store over the driver's write");
    both = FixedMemIn {
        vreq: true,
        vstore: true,
        vmask: 1,
        ..store(4, 5)
    };
    both.vaddr[0] = 4;
    both.vdata[0] = 9;
    m.clock(&both);
    assert_eq!(m.words()[4], 9, "a lane over the scalar store");
    let out = idle(&mut m, 2);
    let answered: Vec<_> = out
        .iter()
        .map(|o| (o.sresp, o.sresp_store, o.sresp_tag, o.sresp_data))
        .collect();
    assert_eq!(answered, [(true, true, 7, [0; 4]); 2]);
}
