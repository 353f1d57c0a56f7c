use rtgpu_hw::pws::{PwsParams, SimdGroup};
use rust_hdl::prelude::*;
fn main() {
    let mut g = SimdGroup::<64, 4, 8>::new(PwsParams::default());
    g.connect_all();
    check_all(&g).unwrap();
    std::fs::write("/tmp/pwsv/top.v", generate_verilog_unchecked(&g)).unwrap();
}
