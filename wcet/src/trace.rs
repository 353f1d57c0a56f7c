//! The analysis input shared with the simulators: a hardware description (functional units and
//! a table of opcode classes, each with its unit, initiation and latency) and per-warp dynamic
//! instruction paths with no timing (the inputs of the multi-phase paper's analysis, with
//! costs per opcode class rather than per unit). Nothing here knows how the paths are timed.
//!
//! # The class table
//!
//! An instruction names its *opcode class*; the class names the functional unit it executes on
//! and its costs (the paper's partially pipelined FUs): the instruction occupies its **unit** for
//! the class's `init` cycles (one initiation at a time per unit, across all warps), then spends the
//! class's `lat` cycles in a fully pipelined stage. Classes that share a unit share its initiation
//! slot and its dispatch FIFO, with their own costs: on Accel-Sim's INT unit an int add initiates
//! for 2 cycles, a mul24 for 3 and a `mov` for 1 (Accel-Sim's configs). [`HwDesc::gpgpu_sim`] is
//! that table; [`HwDesc::from_json`] reads a table written by a user (unknown fields rejected, the
//! table validated); [`HwDesc::from_costs`] gives one class per unit, as the paper's examples use.

use std::collections::HashSet;
use std::fmt;

use serde::{Deserialize, Serialize};

/// An opcode class: the functional unit its instructions execute on and their
/// costs there. A dispatch at cycle `d` initiates on `unit` during `[d, d + init)`, then the
/// result takes `lat` more cycles in a fully pipelined stage: a consumer may issue in cycle
/// `d + init + lat`.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OpClass {
    /// The class's name (non-empty, no whitespace: it is the `opcode` column of the event log).
    pub name: String,
    /// The functional unit (index into [`HwDesc::units`]).
    pub unit: usize,
    /// Initiation cycles (≥ 1): how long the unit initiates nothing else.
    pub init: u32,
    /// Latency cycles after the initiation (≥ 0), fully pipelined.
    pub lat: u32,
}

/// The hardware description: the functional units and the opcode class table (`opclass →
/// (fu, init, lat)`), shared by the simulator and the analysis. Instructions name a class by its
/// index in `classes`.
///
/// The fields are public so that tests can build any table; [`HwDesc::validate`] (which
/// [`HwDesc::from_json`] runs) says whether a table is well formed, and the analysis and the SM
/// model reject instructions whose class is missing or ill formed.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HwDesc {
    /// The functional units' names; unit `u` is `units[u]`.
    pub units: Vec<String>,
    /// The opcode classes; class `c` is `classes[c]`.
    pub classes: Vec<OpClass>,
}

/// Why a hardware table is not well formed. Every variant names the offending entry.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum HwError {
    /// The text is not JSON of the table's shape (an unknown field, a missing one, a bad value);
    /// serde's message, with its line and column.
    Json(String),
    /// The table has no functional unit.
    NoUnits,
    /// The table has no opcode class.
    NoClasses,
    /// A unit or class name is empty or contains whitespace.
    BadName {
        /// `"unit"` or `"class"`.
        what: &'static str,
        /// The name.
        name: String,
    },
    /// Two units have the same name.
    DuplicateUnit {
        /// The name.
        name: String,
    },
    /// Two classes have the same name.
    DuplicateClass {
        /// The name.
        name: String,
    },
    /// A class names a unit the table lacks.
    UnitOutOfRange {
        /// The class's name.
        class: String,
        /// The unit it names.
        unit: usize,
        /// How many units the table has.
        units: usize,
    },
    /// A class has `init = 0` (an initiation lasts at least one cycle).
    ZeroInit {
        /// The class's name.
        class: String,
    },
}

impl fmt::Display for HwError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Json(e) => write!(f, "bad hardware table: {e}"),
            Self::NoUnits => write!(f, "bad hardware table: no functional unit in `units`"),
            Self::NoClasses => write!(f, "bad hardware table: no opcode class in `classes`"),
            Self::BadName { what, name } => write!(
                f,
                "bad hardware table: {what} name `{name}` must be non-empty, without whitespace"
            ),
            Self::DuplicateUnit { name } => {
                write!(f, "bad hardware table: two units are named `{name}`")
            }
            Self::DuplicateClass { name } => {
                write!(f, "bad hardware table: two classes are named `{name}`")
            }
            Self::UnitOutOfRange { class, unit, units } => write!(
                f,
                "bad hardware table: class `{class}` is on unit {unit}, but there are {units} \
                 units (0..={})",
                units.saturating_sub(1)
            ),
            Self::ZeroInit { class } => write!(
                f,
                "bad hardware table: class `{class}` has init 0; every class needs init >= 1"
            ),
        }
    }
}

impl std::error::Error for HwError {}

/// Indices of [`HwDesc::gpgpu_sim`]'s units and classes.
pub mod gpgpu_sim {
    /// Unit indices.
    pub mod unit {
        /// Integer unit: int arithmetic and every other ALU op (`ALU_OP`).
        pub const INT: usize = 0;
        /// fp32 unit.
        pub const SP: usize = 1;
        /// fp64 unit.
        pub const DP: usize = 2;
        /// Special function unit: divisions and transcendentals.
        pub const SFU: usize = 3;
        /// Tensor core.
        pub const TENSOR: usize = 4;
        /// Global memory "impostor" unit: pipelined, no contention (the paper's assumption).
        pub const MEM: usize = 5;
        /// Shared memory load/store unit, no bank conflicts.
        pub const LDST: usize = 6;
    }

    /// Class indices.
    pub mod class {
        /// `int`: int add/sub, min/max, mul, mad — INT (2, 2).
        pub const INT: usize = 0;
        /// `int_mul24`: mul24/mad24 — INT (3, 2).
        pub const INT_MUL24: usize = 1;
        /// `int_div`: int div/rem — SFU (2, 19).
        pub const INT_DIV: usize = 2;
        /// `fp32`: f32 add/sub, min/max, mul, mad/fma — SP (1, 3).
        pub const FP32: usize = 3;
        /// `fp32_div`: f32 div/rem — SFU (2, 37).
        pub const FP32_DIV: usize = 4;
        /// `fp64`: f64 add, min/max, mul, mad/fma — DP (64, 0).
        pub const FP64: usize = 5;
        /// `fp64_div`: f64 div/rem — SFU (130, 200).
        pub const FP64_DIV: usize = 6;
        /// `sfu`: sqrt, sin, cos, ex2, lg2, rsqrt, rcp — SFU (8, 13).
        pub const SFU: usize = 7;
        /// `mma`: tensor-core mma — TENSOR (64, 0).
        pub const MMA: usize = 8;
        /// `alu`: every other ALU op (mov, setp, selp, logic, shifts, cvt, …), branches and
        /// barriers — INT (1, 0).
        pub const ALU: usize = 9;
        /// `mem`: global memory ld/st — MEM (1, L − 1).
        pub const MEM: usize = 10;
        /// `shared`: shared memory ld/st — LDST (1, 1).
        pub const SHARED: usize = 11;
    }
}

impl HwDesc {
    /// One unit and one class per entry: unit `f` is named `fu{f}`, and class `f`, also named
    /// `fu{f}`, runs on unit `f` with costs `costs[f] = (init, lat)`. This is the per-unit
    /// description of the paper's examples.
    pub fn from_costs(costs: &[(u32, u32)]) -> Self {
        let name = |f: usize| format!("fu{f}");
        Self {
            units: (0..costs.len()).map(name).collect(),
            classes: costs
                .iter()
                .enumerate()
                .map(|(f, &(init, lat))| OpClass {
                    name: name(f),
                    unit: f,
                    init,
                    lat,
                })
                .collect(),
        }
    }

    /// Units named `units` and classes `(name, unit, init, lat)`, as written in tests and
    /// examples.
    pub fn from_classes(units: &[&str], classes: &[(&str, usize, u32, u32)]) -> Self {
        Self {
            units: units.iter().map(|u| u.to_string()).collect(),
            classes: classes
                .iter()
                .map(|&(name, unit, init, lat)| OpClass {
                    name: name.into(),
                    unit,
                    init,
                    lat,
                })
                .collect(),
        }
    }

    /// `units` units named `u0`, `u1`, ... and classes `(unit, init, lat)` named `c0`, `c1`,
    /// ...: the shape random tests generate.
    pub fn numbered(units: usize, classes: &[(usize, u32, u32)]) -> Self {
        Self {
            units: (0..units).map(|u| format!("u{u}")).collect(),
            classes: (0..)
                .zip(classes)
                .map(|(c, &(unit, init, lat))| OpClass {
                    name: format!("c{c}"),
                    unit,
                    init,
                    lat,
                })
                .collect(),
        }
    }

    /// Two classes with different costs on one unit U0, `slow` (init 4, lat 2) and `fast`
    /// (init 1, lat 5), and `other` (2, 0) alone on U1: the shared-unit example of the tests.
    pub fn shared_unit_example() -> Self {
        Self::from_classes(
            &["U0", "U1"],
            &[("slow", 0, 4, 2), ("fast", 0, 1, 5), ("other", 1, 2, 0)],
        )
    }

    /// Accel-Sim's latency table (the ECRTS-2025 Accel-Sim configs, `init = I`, `lat = L − I`),
    /// with global memory latency `mem_lat` (dispatch to result; the `mem` class gets
    /// `lat = mem_lat − 1`, 0 when `mem_lat` is 0). Units and classes are in the order of
    /// [`gpgpu_sim::unit`] and [`gpgpu_sim::class`]:
    ///
    /// | class | unit | init | lat |
    /// |---|---|---|---|
    /// | `int` (int add/sub, min/max, mul, mad) | INT | 2 | 2 |
    /// | `int_mul24` (mul24, mad24) | INT | 3 | 2 |
    /// | `int_div` (int div/rem) | SFU | 2 | 19 |
    /// | `fp32` (f32 add/sub, min/max, mul, mad/fma) | SP | 1 | 3 |
    /// | `fp32_div` (f32 div/rem) | SFU | 2 | 37 |
    /// | `fp64` (f64 add, min/max, mul, mad/fma) | DP | 64 | 0 |
    /// | `fp64_div` (f64 div/rem) | SFU | 130 | 200 |
    /// | `sfu` (sqrt, sin, cos, ex2, lg2, rsqrt, rcp) | SFU | 8 | 13 |
    /// | `mma` | TENSOR | 64 | 0 |
    /// | `alu` (mov, setp, selp, logic, shifts, cvt, …, branches, barriers) | INT | 1 | 0 |
    /// | `mem` (global ld/st) | MEM | 1 | `mem_lat − 1` |
    /// | `shared` (shared ld/st) | LDST | 1 | 1 |
    pub fn gpgpu_sim(mem_lat: u32) -> Self {
        use gpgpu_sim::unit::*;
        let units = ["INT", "SP", "DP", "SFU", "TENSOR", "MEM", "LDST"];
        let table = [
            ("int", INT, 2, 2),
            ("int_mul24", INT, 3, 2),
            ("int_div", SFU, 2, 19),
            ("fp32", SP, 1, 3),
            ("fp32_div", SFU, 2, 37),
            ("fp64", DP, 64, 0),
            ("fp64_div", SFU, 130, 200),
            ("sfu", SFU, 8, 13),
            ("mma", TENSOR, 64, 0),
            ("alu", INT, 1, 0),
            ("mem", MEM, 1, mem_lat.saturating_sub(1)),
            ("shared", LDST, 1, 1),
        ];
        Self {
            units: units.iter().map(|u| u.to_string()).collect(),
            classes: table
                .iter()
                .map(|&(name, unit, init, lat)| OpClass {
                    name: name.to_string(),
                    unit,
                    init,
                    lat,
                })
                .collect(),
        }
    }

    /// Reads a table from JSON: `{"units": ["INT", ...], "classes": [{"name": "int", "unit": 0,
    /// "init": 2, "lat": 2}, ...]}` (the shape [`HwDesc::to_json`] writes), then validates it.
    ///
    /// # Errors
    /// [`HwError::Json`] for text that is not such a table (unknown or missing fields
    /// included), else the first error of [`HwDesc::validate`].
    pub fn from_json(text: &str) -> Result<Self, HwError> {
        let hw: Self = serde_json::from_str(text).map_err(|e| HwError::Json(e.to_string()))?;
        hw.validate()?;
        Ok(hw)
    }

    /// The table as pretty-printed JSON, which [`HwDesc::from_json`] reads back.
    pub fn to_json(&self) -> String {
        // A struct of strings and integers always serializes.
        serde_json::to_string_pretty(self).unwrap_or_default()
    }

    /// Checks that the table is well formed: at least one unit and one class, names non-empty
    /// without whitespace and unique (units among units, classes among classes), every class on
    /// an existing unit with `init ≥ 1`.
    ///
    /// # Errors
    /// The first violation found, in that order.
    pub fn validate(&self) -> Result<(), HwError> {
        if self.units.is_empty() {
            return Err(HwError::NoUnits);
        }
        if self.classes.is_empty() {
            return Err(HwError::NoClasses);
        }
        let bad = |name: &str| name.is_empty() || name.chars().any(char::is_whitespace);
        let mut seen = HashSet::new();
        for name in &self.units {
            if bad(name) {
                return Err(HwError::BadName {
                    what: "unit",
                    name: name.clone(),
                });
            }
            if !seen.insert(name.as_str()) {
                return Err(HwError::DuplicateUnit { name: name.clone() });
            }
        }
        let mut seen = HashSet::new();
        for c in &self.classes {
            if bad(&c.name) {
                return Err(HwError::BadName {
                    what: "class",
                    name: c.name.clone(),
                });
            }
            if !seen.insert(c.name.as_str()) {
                return Err(HwError::DuplicateClass {
                    name: c.name.clone(),
                });
            }
            if c.unit >= self.units.len() {
                return Err(HwError::UnitOutOfRange {
                    class: c.name.clone(),
                    unit: c.unit,
                    units: self.units.len(),
                });
            }
            if c.init == 0 {
                return Err(HwError::ZeroInit {
                    class: c.name.clone(),
                });
            }
        }
        Ok(())
    }

    /// Class `class`, if the table has it.
    pub fn class(&self, class: usize) -> Option<&OpClass> {
        self.classes.get(class)
    }

    /// The index of the class named `name`.
    pub fn class_by_name(&self, name: &str) -> Option<usize> {
        self.classes.iter().position(|c| c.name == name)
    }

    /// The index of the unit named `name`.
    pub fn unit_by_name(&self, name: &str) -> Option<usize> {
        self.units.iter().position(|u| u == name)
    }
}

/// A register of one warp (registers are private to their warp).
pub type Reg = u16;

/// One dynamic instruction of one warp's path: no timing fields, ever.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct DynInst {
    /// Its opcode class (index into [`HwDesc::classes`]), which gives its unit and costs.
    pub class: usize,
    /// Source registers.
    pub srcs: Vec<Reg>,
    /// Destination register, if any.
    pub dst: Option<Reg>,
    /// A block-wide barrier (`s_barrier`): issued and initiated in its `class` like any
    /// instruction; the warp then waits until every warp of the block has arrived and drained.
    pub barrier: bool,
}

impl DynInst {
    /// An instruction of class `class` reading `srcs` and writing `dst`.
    pub fn new(class: usize, srcs: &[Reg], dst: Option<Reg>) -> Self {
        Self {
            class,
            srcs: srcs.to_vec(),
            dst,
            barrier: false,
        }
    }

    /// A barrier issued in class `class` (`alu`, init 1, lat 0, on Accel-Sim).
    pub fn barrier(class: usize) -> Self {
        Self {
            class,
            srcs: Vec::new(),
            dst: None,
            barrier: true,
        }
    }
}

/// The paths of a block: `paths[w]` is warp w's dynamic instruction sequence (`ret` excluded).
pub type Block = Vec<Vec<DynInst>>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn from_costs_is_one_class_per_unit() {
        let hw = HwDesc::from_costs(&[(2, 6), (3, 4)]);
        assert_eq!(hw.units, ["fu0", "fu1"]);
        assert_eq!(
            hw.classes[1],
            OpClass {
                name: "fu1".into(),
                unit: 1,
                init: 3,
                lat: 4
            }
        );
        assert_eq!(hw.validate(), Ok(()));
    }

    #[test]
    fn gpgpu_sim_is_the_spec_table() {
        use gpgpu_sim::{class, unit};
        let hw = HwDesc::gpgpu_sim(400);
        assert_eq!(hw.validate(), Ok(()));
        let costs = |c: usize| {
            let k = &hw.classes[c];
            (hw.units[k.unit].as_str(), k.init, k.lat)
        };
        assert_eq!(costs(class::INT), ("INT", 2, 2));
        assert_eq!(costs(class::INT_MUL24), ("INT", 3, 2));
        assert_eq!(costs(class::INT_DIV), ("SFU", 2, 19));
        assert_eq!(costs(class::FP32), ("SP", 1, 3));
        assert_eq!(costs(class::FP32_DIV), ("SFU", 2, 37));
        assert_eq!(costs(class::FP64), ("DP", 64, 0));
        assert_eq!(costs(class::FP64_DIV), ("SFU", 130, 200));
        assert_eq!(costs(class::SFU), ("SFU", 8, 13));
        assert_eq!(costs(class::MMA), ("TENSOR", 64, 0));
        assert_eq!(costs(class::ALU), ("INT", 1, 0));
        assert_eq!(costs(class::MEM), ("MEM", 1, 399));
        assert_eq!(costs(class::SHARED), ("LDST", 1, 1));
        let names = [
            "int",
            "int_mul24",
            "int_div",
            "fp32",
            "fp32_div",
            "fp64",
            "fp64_div",
            "sfu",
            "mma",
            "alu",
            "mem",
            "shared",
        ];
        for (c, name) in names.iter().enumerate() {
            assert_eq!(hw.class_by_name(name), Some(c), "{name}");
        }
        assert_eq!(hw.class_by_name("INT"), None);
        for (u, name) in ["INT", "SP", "DP", "SFU", "TENSOR", "MEM", "LDST"]
            .iter()
            .enumerate()
        {
            assert_eq!(hw.unit_by_name(name), Some(u));
        }
        assert_eq!(unit::LDST + 1, hw.units.len());
        assert_eq!(HwDesc::gpgpu_sim(5).classes[class::MEM].lat, 4);
        assert_eq!(HwDesc::gpgpu_sim(0).classes[class::MEM].lat, 0);
    }

    #[test]
    fn json_round_trip() {
        let hw = HwDesc::gpgpu_sim(400);
        let text = hw.to_json();
        assert!(text.contains("\"name\": \"fp64_div\""), "{text}");
        assert_eq!(HwDesc::from_json(&text), Ok(hw));
        let small =
            r#"{"units": ["A"], "classes": [{"name": "x", "unit": 0, "init": 1, "lat": 0}]}"#;
        assert_eq!(
            HwDesc::from_json(small).unwrap().class_by_name("x"),
            Some(0)
        );
    }

    /// `gpgpu_sim(400)`'s JSON with `from` replaced by `to` (exactly once).
    fn edited(from: &str, to: &str) -> String {
        let text = HwDesc::gpgpu_sim(400).to_json();
        assert_eq!(text.matches(from).count(), 1, "{from}");
        text.replace(from, to)
    }

    fn rejected(text: &str) -> (HwError, String) {
        let e = HwDesc::from_json(text).unwrap_err();
        let msg = e.to_string();
        (e, msg)
    }

    #[test]
    fn bad_tables_are_rejected_with_a_message() {
        // An unknown field, in a class and at the top.
        let (e, msg) = rejected(&edited(
            "\"name\": \"sfu\",",
            "\"name\": \"sfu\", \"ports\": 2,",
        ));
        assert!(matches!(e, HwError::Json(_)), "{e:?}");
        assert!(
            msg.contains("unknown field `ports`") && msg.contains("line"),
            "{msg}"
        );
        let (_, msg) = rejected(r#"{"units": ["A"], "classes": [], "q_depth": 4}"#);
        assert!(msg.contains("unknown field `q_depth`"), "{msg}");
        // A missing field, a negative init.
        let (_, msg) =
            rejected(r#"{"units": ["A"], "classes": [{"name": "x", "unit": 0, "init": 1}]}"#);
        assert!(msg.contains("missing field `lat`"), "{msg}");
        let (e, _) = rejected(&edited("\"init\": 130", "\"init\": -1"));
        assert!(matches!(e, HwError::Json(_)));
        // A class on unit 9 of 7.
        let (e, msg) = rejected(&edited("\"unit\": 4", "\"unit\": 9"));
        assert_eq!(
            e,
            HwError::UnitOutOfRange {
                class: "mma".into(),
                unit: 9,
                units: 7
            }
        );
        assert!(
            msg.contains("class `mma` is on unit 9, but there are 7 units (0..=6)"),
            "{msg}"
        );
        // init 0.
        let (e, msg) = rejected(&edited("\"init\": 130", "\"init\": 0"));
        assert_eq!(
            e,
            HwError::ZeroInit {
                class: "fp64_div".into()
            }
        );
        assert!(msg.contains("class `fp64_div` has init 0"), "{msg}");
        // Duplicate names.
        let (e, msg) = rejected(&edited("\"name\": \"int_div\"", "\"name\": \"sfu\""));
        assert_eq!(e, HwError::DuplicateClass { name: "sfu".into() });
        assert!(msg.contains("two classes are named `sfu`"), "{msg}");
        let (e, _) = rejected(&edited("\"TENSOR\"", "\"SFU\""));
        assert_eq!(e, HwError::DuplicateUnit { name: "SFU".into() });
        // Empty tables and bad names.
        let (e, msg) = rejected(r#"{"units": [], "classes": []}"#);
        assert_eq!(e, HwError::NoUnits);
        assert!(msg.contains("no functional unit"), "{msg}");
        assert_eq!(
            rejected(r#"{"units": ["A"], "classes": []}"#).0,
            HwError::NoClasses
        );
        let (e, _) = rejected(&edited("\"name\": \"alu\"", "\"name\": \"a lu\""));
        assert_eq!(
            e,
            HwError::BadName {
                what: "class",
                name: "a lu".into()
            }
        );
        let (e, _) = rejected(&edited("\"LDST\"", "\"\""));
        assert!(matches!(e, HwError::BadName { what: "unit", .. }));
        // Not JSON at all.
        assert!(matches!(rejected("units: [A]").0, HwError::Json(_)));
    }
}
