//! Port bundles: a block's inputs or outputs as named, sized values.

/// What [`Ports::visit`] calls for every port: (name, width in bits, value).
pub type Visit<'a> = &'a mut dyn FnMut(&str, u32, u64);

/// A port bundle: it lists its ports, with the name and width the RTL gives them, so that a
/// lock-step checker can name the first port that differs and a waveform can show them.
pub trait Ports {
    /// Calls `v` for every port, names prefixed with `prefix` (`prefix.port`, `prefix[i]`).
    fn visit(&self, prefix: &str, v: Visit);

    /// Every port as (name, width, value).
    fn flatten(&self) -> Vec<(String, u32, u64)> {
        let mut out = Vec::new();
        self.visit("", &mut |n, w, x| out.push((n.to_string(), w, x)));
        out
    }
}

macro_rules! scalar_ports {
    ($($t:ty),*) => {$(
        impl Ports for $t {
            fn visit(&self, prefix: &str, v: Visit) {
                v(prefix, <$t>::BITS, u64::from(*self));
            }
        }
    )*};
}

scalar_ports!(u8, u16, u32, u64);

impl Ports for bool {
    fn visit(&self, prefix: &str, v: Visit) {
        v(prefix, 1, u64::from(*self));
    }
}

impl<T: Ports> Ports for [T] {
    fn visit(&self, prefix: &str, v: Visit) {
        for (i, x) in self.iter().enumerate() {
            x.visit(&format!("{prefix}[{i}]"), v);
        }
    }
}

impl<T: Ports> Ports for Vec<T> {
    fn visit(&self, prefix: &str, v: Visit) {
        self.as_slice().visit(prefix, v);
    }
}

impl<T: Ports, const N: usize> Ports for [T; N] {
    fn visit(&self, prefix: &str, v: Visit) {
        self.as_slice().visit(prefix, v);
    }
}

/// `prefix.name`, or `name` at the top.
pub fn join(prefix: &str, name: &str) -> String {
    if prefix.is_empty() {
        name.to_string()
    } else {
        format!("{prefix}.{name}")
    }
}

/// Implements [`Ports`] for a struct by visiting the listed fields in order.
#[macro_export]
macro_rules! ports {
    ($t:ty { $($f:ident),* $(,)? }) => {
        impl $crate::block::Ports for $t {
            fn visit(&self, prefix: &str, v: $crate::block::Visit) {
                $( $crate::block::Ports::visit(
                    &self.$f,
                    &$crate::block::ports::join(prefix, stringify!($f)),
                    v,
                ); )*
            }
        }
    };
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Clone, Default)]
    struct Inner {
        a: bool,
        b: u16,
    }
    crate::ports!(Inner { a, b });

    #[derive(Clone, Default)]
    struct Outer {
        x: u8,
        v: Vec<Inner>,
    }
    crate::ports!(Outer { x, v });

    #[test]
    fn nested_bundles_name_every_port_with_its_width() {
        let o = Outer {
            x: 7,
            v: vec![
                Inner { a: true, b: 3 },
                Inner {
                    a: false,
                    b: 0xFFFF,
                },
            ],
        };
        let names: Vec<(String, u32, u64)> = o.flatten();
        assert_eq!(
            names,
            vec![
                ("x".to_string(), 8, 7),
                ("v[0].a".to_string(), 1, 1),
                ("v[0].b".to_string(), 16, 3),
                ("v[1].a".to_string(), 1, 0),
                ("v[1].b".to_string(), 16, 0xFFFF),
            ]
        );
    }
}
