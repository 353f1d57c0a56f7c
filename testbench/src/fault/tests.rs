//! Fault-injection tests on vector_add: the fault model's two certain cases and the seed.

use super::*;
use rtgpu_firmware::isa::{assemble, disassemble};
use rtgpu_firmware::launch::{Image, KernelMeta};
use rtgpu_hw::cu::inject::Reg;

fn vector_add() -> Case {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../firmware/kernels/vector_add.s"
    );
    let text = std::fs::read_to_string(path).unwrap();
    let code = assemble(&text, "vector_add").unwrap().words();
    let meta = KernelMeta::parse(&text).unwrap();
    let image = Image::build(&meta.args, meta.dims, 3);
    Case { code, meta, image }
}

/// The byte PC of the instruction whose text starts with `prefix`.
fn pc_of(code: &[u32], prefix: &str) -> u32 {
    disassemble(code)
        .unwrap()
        .into_iter()
        .find(|d| d.to_string().starts_with(prefix))
        .unwrap_or_else(|| panic!("{prefix}"))
        .addr
}

/// The launch cycles at which wavefront 0 issued the instruction at `pc`.
fn issues_of(c: &Campaign, pc: u32) -> Vec<u64> {
    let (_, mut gpu) = run_case(&c.case, c.cfg, 1_000_000, |cu| {
        cu.issue_log = Some(Vec::new())
    })
    .unwrap();
    let log = gpu.cu_mut().issue_log.take().unwrap();
    log.iter()
        .filter(|r| r.wave == 0 && r.pc == pc)
        .map(|r| r.cycle)
        .collect()
}

fn flip(wave: u32, reg: Reg, bit: u8) -> Target {
    Target::Reg { wave, reg, bit }
}

/// A flip in a dead register is always masked: v1 (the byte offset) of wavefront 0 after the
/// `v_add` that reads it last, in every cycle up to the wavefront's end (lanes and bits
/// varying), and v100, which the kernel never names, at 20 cycles. Catches the hook flipping
/// another VGPR than the one asked for (v + 7: v1 becomes v8, the live store address).
#[test]
fn a_flip_in_a_dead_register_is_masked() {
    let c = Campaign::new(vector_add(), CuConfig::default()).unwrap();
    let code = &c.case.code;
    let last = issues_of(&c, pc_of(code, "v_add_u32_e32 v8, vcc, s12, v1"))[0];
    let end = issues_of(&c, pc_of(code, "s_endpgm"))[0];
    assert!(end > last + 32, "{last}..{end}");
    for (k, at) in (last + 1..=end).enumerate() {
        let v1 = Reg::Vgpr {
            v: 1,
            lane: (k * 13 % 64) as u8,
        };
        let (o, f) = c.inject(at, flip(0, v1, (k % 32) as u8)).unwrap();
        assert_eq!(o, Outcome::Masked, "v1 at {at}");
        assert!(f.is_some(), "nothing flipped at {at}");
    }
    for at in (0..c.cycles).step_by((c.cycles / 20).max(1) as usize) {
        let v100 = Reg::Vgpr { v: 100, lane: 7 };
        assert_eq!(c.inject(at, flip(1, v100, 31)).unwrap().0, Outcome::Masked);
    }
}

/// A flip in a live address register is detected or corrupts: bit 20 of v3 (the high dword of
/// &a[i]) in lane 0 of wavefront 0, after the `v_addc` that writes it and up to the load that
/// reads it, sends the load far outside memory. Catches a hook that flips nothing in VGPRs.
#[test]
fn a_flip_in_a_live_address_register_is_not_masked() {
    let c = Campaign::new(vector_add(), CuConfig::default()).unwrap();
    let code = &c.case.code;
    let write = issues_of(&c, pc_of(code, "v_addc_u32_e32 v3"))[0];
    let load = issues_of(&c, pc_of(code, "flat_load_dword v6"))[0];
    assert!(write < load);
    for at in write + 1..=load {
        let (o, f) = c
            .inject(at, flip(0, Reg::Vgpr { v: 3, lane: 0 }, 20))
            .unwrap();
        assert!(
            matches!(o, Outcome::Detected | Outcome::Sdc),
            "{o:?} at {at}"
        );
        assert_eq!(f.map(|f| f.cycle), Some(at));
    }
}

/// The counts depend on the seed only: two campaigns of 24 injections with seed 9, one over
/// every core and one run in order on this thread, count the same; every injection was
/// classified. Catches draws that depend on the thread running them (the stream mixed with
/// the thread's name).
#[test]
fn counts_are_reproducible_from_the_seed() {
    let c = Campaign::new(vector_add(), CuConfig::default()).unwrap();
    let a = c.run(24, 9, || {}).unwrap();
    let mut b = Tally::default();
    for i in 0..24 {
        let (at, t) = c.draw(9, i);
        b.add(c.inject(at, t).unwrap().0);
    }
    assert_eq!(a, b);
    assert_eq!(a.n(), 24);
}
