use rtgpu_hw::dram::model::DramIn;
use rtgpu_hw::dram::{Command, Part};
use rtgpu_testbench::dram::rtl::RtlDram;

fn run(words: u32, addr: u32, write: bool) -> (Vec<String>, u32) {
    let part = Part::DDR4_3200AA_X16;
    let mut r = RtlDram::<8>::new(&part, 0).unwrap();
    let mut log = Vec::new();
    let mut lid = 0;
    for t in 0..2000u64 {
        let inp = DramIn {
            req_valid: t == 0,
            req_write: write,
            req_addr: addr,
            req_words: words,
            req_period: words,
            req_count: 1,
            req_tag: 5,
            ..DramIn::default()
        };
        let o = r.step(&inp).unwrap();
        if o.cmd != Command::Nop {
            log.push(format!(
                "{t} {} {} {} {} {}",
                o.cmd.name(),
                o.cmd_bg,
                o.cmd_bank,
                o.cmd_row,
                o.cmd_col
            ));
        }
        if o.done {
            lid = o.done_lid;
            break;
        }
    }
    (log, lid)
}

#[test]
fn smoke() {
    for (w, a) in [(16, 0), (32, 0), (1024, 0), (1024, 1), (2048, 0)] {
        let (log, lid) = run(w, a, false);
        println!("words {w} addr {a}: lid {lid}, {} cmds", log.len());
        for l in log.iter().take(14) {
            println!("  {l}");
        }
    }
}

#[test]
fn lint_synth() {
    use rtgpu_testbench::cosim;
    let part = Part::DDR4_3200AA_X16;
    let v = cosim::verilog_of(&mut rtgpu_hw::dram::DramCtrl::<8>::new(&part, 0)).unwrap();
    let dir = std::path::PathBuf::from("/tmp/dramlint");
    std::fs::create_dir_all(&dir).unwrap();
    let r = cosim::lint(&dir, &v, &[]);
    println!("{r:?}");
    let s = cosim::synth(&dir, &v);
    println!("{s:?}");
}
