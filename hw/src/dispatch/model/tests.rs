//! The model against the contract's worked cases.

use super::*;

const SHAPE: Shape = Shape {
    groups: 4,
    slots: 2,
    resident: 8,
};

fn launch(first: u32, end: u32, stride: u32, waves: u8) -> DispatchIn {
    DispatchIn {
        start: true,
        launch: LaunchIn {
            first,
            end,
            stride,
            waves,
            max_res: 255,
        },
        ..DispatchIn::idle(SHAPE)
    }
}

/// Every slot and port free, nothing ended, limit open.
fn open() -> DispatchIn {
    DispatchIn {
        limit: u32::MAX,
        free: vec![0b11; SHAPE.groups],
        port_free: vec![true; SHAPE.groups],
        ..DispatchIn::idle(SHAPE)
    }
}

fn sent(out: &DispatchOut) -> Vec<(usize, u32, u8)> {
    (out.send.iter().enumerate())
        .filter(|(_, s)| s.valid)
        .map(|(g, s)| (g, s.wg, s.wave))
        .collect()
}

#[test]
fn ids_step_by_the_stride_below_the_end() {
    let mut m = DispatchModel::new(SHAPE);
    m.cycle(&launch(1, 8, 3, 1));
    let out = m.cycle(&open());
    // Work-groups 1, 4, 7 (10 is past the end), to groups 0, 1, 2 from next_simd = 0.
    assert_eq!(sent(&out), [(0, 1, 0), (1, 4, 0), (2, 7, 0)]);
    assert_eq!(out.admitted[..3], [true; 3]);
    assert!(m.cycle(&open()).finished);
}

#[test]
fn the_round_robin_start_advances_every_cycle() {
    let mut m = DispatchModel::new(SHAPE);
    m.cycle(&launch(0, 1, 1, 1));
    // Cycle 0: no slot free (admission waits); cycle 1 starts at group 1.
    assert!(sent(&m.cycle(&DispatchIn::idle(SHAPE))).is_empty());
    assert_eq!(sent(&m.cycle(&open())), [(1, 0, 0)]);
}

#[test]
fn admission_counts_the_pending_wavefronts() {
    let mut m = DispatchModel::new(SHAPE);
    m.cycle(&launch(0, 4, 1, 2));
    // 3 free slots: one work-group of 2 (a second would need 4); no port free, so both wait.
    let three = DispatchIn {
        free: vec![0b11, 0b01, 0, 0],
        ..open()
    };
    let busy = DispatchIn {
        port_free: vec![false; 4],
        ..three.clone()
    };
    assert_eq!(m.cycle(&busy).admitted.iter().filter(|a| **a).count(), 1);
    // 2 pending + 2 > 3 free: nothing more; the ports free send the two waiting.
    let out = m.cycle(&three);
    assert!(!out.admitted.contains(&true));
    assert_eq!(out.pending, 2);
    // From group 1: group 1 takes wave 0, groups 2 and 3 have no free slot, group 0 wave 1.
    assert_eq!(sent(&out), [(0, 0, 1), (1, 0, 0)]);
}

#[test]
fn an_entry_is_free_the_cycle_after_its_last_wavefront_ends() {
    let mut m = DispatchModel::new(SHAPE);
    let one = DispatchIn {
        launch: LaunchIn {
            max_res: 1,
            ..launch(0, 2, 1, 1).launch
        },
        ..launch(0, 2, 1, 1)
    };
    m.cycle(&one);
    assert_eq!(sent(&m.cycle(&open())), [(0, 0, 0)]);
    // One entry: work-group 1 waits for work-group 0's end, and enters the cycle after it.
    let mut ended = open();
    ended.ended[0] = 1;
    assert!(sent(&m.cycle(&ended)).is_empty());
    let out = m.cycle(&open());
    assert_eq!((out.resident[0], out.admitted[0]), (false, true));
    assert_eq!(sent(&out), [(2, 1, 0)]);
}
