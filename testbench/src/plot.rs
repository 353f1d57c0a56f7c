//! PNG bar charts for the reproduction's figures (e.g. the PWS paper's Table 3 and
//! the speedups of its Figs. 11–12): grouped bars, one colour per series, a legend, a value axis
//! from 0 with headroom and the category names under each group.
//!
//! Drawing uses `plotters`' bitmap backend; text is rendered with `ab_glyph` from
//! [`FONT_PATH`] (Debian package `fonts-dejavu-core`, installed by `scripts/setup`), loaded once
//! at run time, so no fontconfig/freetype system library is needed.

use std::ops::Range;
use std::path::Path;
use std::sync::OnceLock;

use plotters::coord::ranged1d::{DefaultFormatting, KeyPointHint};
use plotters::coord::types::RangedCoordf64;
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::{register_font, FontStyle};

/// The TrueType font the charts' text is drawn with.
pub const FONT_PATH: &str = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf";

/// The Debian package that provides [`FONT_PATH`].
pub const FONT_PACKAGE: &str = "fonts-dejavu-core";

/// Series colours, in order (cycled when there are more series).
const PALETTE: [RGBColor; 8] = [
    RGBColor(31, 119, 180),
    RGBColor(255, 127, 14),
    RGBColor(44, 160, 44),
    RGBColor(214, 39, 40),
    RGBColor(148, 103, 189),
    RGBColor(140, 86, 75),
    RGBColor(227, 119, 194),
    RGBColor(127, 127, 127),
];

/// Fraction of a category's width taken by its group of bars.
const GROUP_WIDTH: f64 = 0.8;

/// Headroom above the tallest bar, as a fraction of its height, before the legend's share.
const HEADROOM: f64 = 0.12;

/// Extra headroom per legend entry (the legend sits in the upper right corner).
const LEGEND_ROOM: f64 = 0.1;

/// At most this many bars get their value written above them.
const MAX_VALUE_LABELS: usize = 32;

/// One series of a bar chart: a name (legend) and one value per category.
#[derive(Clone, Debug, PartialEq)]
pub struct Series {
    /// The legend entry.
    pub name: String,
    /// One value per category, in category order; non-finite values draw no bar.
    pub values: Vec<f64>,
}

/// A grouped bar chart: per category, one bar per series.
#[derive(Clone, Debug, PartialEq)]
pub struct BarChart {
    /// Caption above the chart.
    pub title: String,
    /// Description of the category axis.
    pub x_label: String,
    /// Description of the value axis.
    pub y_label: String,
    /// The groups, left to right.
    pub categories: Vec<String>,
    /// The bars of each group, left to right.
    pub series: Vec<Series>,
}

/// Renders `c` as a `width`×`height` PNG at `path`.
pub fn bar_chart_png(c: &BarChart, path: &Path, width: u32, height: u32) -> Result<(), String> {
    bar_charts_png(std::slice::from_ref(c), path, width, height)
}

/// Renders `charts` stacked vertically (equal heights) into one `width`×`height` PNG at `path`.
pub fn bar_charts_png(
    charts: &[BarChart],
    path: &Path,
    width: u32,
    height: u32,
) -> Result<(), String> {
    if charts.is_empty() {
        return Err("no chart to draw".into());
    }
    if width == 0 || height == 0 {
        return Err(format!("empty image size {width}x{height}"));
    }
    charts.iter().try_for_each(validate)?;
    load_font()?;
    let root = BitMapBackend::new(path, (width, height)).into_drawing_area();
    root.fill(&WHITE).map_err(err)?;
    let panels = root.split_evenly((charts.len(), 1));
    for (chart, panel) in charts.iter().zip(&panels) {
        draw_chart(chart, panel)?;
    }
    root.present()
        .map_err(|e| format!("writing {}: {e}", path.display()))
}

/// Checks that every series has one value per category.
fn validate(c: &BarChart) -> Result<(), String> {
    if c.categories.is_empty() {
        return Err(format!("chart \"{}\" has no category", c.title));
    }
    if c.series.is_empty() {
        return Err(format!("chart \"{}\" has no series", c.title));
    }
    match c
        .series
        .iter()
        .find(|s| s.values.len() != c.categories.len())
    {
        Some(s) => Err(format!(
            "chart \"{}\": series \"{}\" has {} values for {} categories",
            c.title,
            s.name,
            s.values.len(),
            c.categories.len()
        )),
        None => Ok(()),
    }
}

/// Registers [`FONT_PATH`] as plotters' "sans-serif" once per process.
fn load_font() -> Result<(), String> {
    static LOADED: OnceLock<Result<(), String>> = OnceLock::new();
    LOADED
        .get_or_init(|| {
            let bytes = read_font(FONT_PATH)?;
            register_font("sans-serif", FontStyle::Normal, bytes)
                .map_err(|_| format!("chart font {FONT_PATH} is not a valid TrueType font"))
        })
        .clone()
}

/// Reads a font file for the process's lifetime (plotters keeps `'static` font bytes).
fn read_font(path: &str) -> Result<&'static [u8], String> {
    let bytes = std::fs::read(path).map_err(|e| {
        format!("chart font {path}: {e} (install the Debian package {FONT_PACKAGE})")
    })?;
    Ok(Box::leak(bytes.into_boxed_slice()))
}

/// A drawing error as text.
fn err<E: std::fmt::Display>(e: E) -> String {
    format!("drawing: {e}")
}

/// The value axis: from min(0, lowest) to max(0, highest), widened by [`HEADROOM`] plus
/// [`LEGEND_ROOM`] per series (at most 5), so the legend does not hide the bars.
fn value_range(c: &BarChart) -> Range<f64> {
    let finite = || {
        c.series
            .iter()
            .flat_map(|s| s.values.iter().copied())
            .filter(|v| v.is_finite())
    };
    let hi = finite().fold(0.0_f64, f64::max);
    let lo = finite().fold(0.0_f64, f64::min);
    if hi == lo {
        return 0.0..1.0;
    }
    let room = 1.0 + HEADROOM + LEGEND_ROOM * c.series.len().min(5) as f64;
    lo * (1.0 + HEADROOM)..hi * room
}

/// The category axis: group i spans [i, i+1); its one key point (label) is the centre i + 0.5.
#[derive(Clone, Copy, Debug)]
struct CategoryAxis {
    /// Number of categories.
    n: usize,
}

impl Ranged for CategoryAxis {
    type FormatOption = DefaultFormatting;
    type ValueType = f64;

    fn map(&self, value: &f64, limit: (i32, i32)) -> i32 {
        let span = f64::from(limit.1 - limit.0);
        limit.0 + (value / self.n as f64 * span).round() as i32
    }

    fn key_points<Hint: KeyPointHint>(&self, _hint: Hint) -> Vec<f64> {
        (0..self.n).map(|i| i as f64 + 0.5).collect()
    }

    fn range(&self) -> Range<f64> {
        0.0..self.n as f64
    }
}

/// The category name under a group centre.
fn category_name(c: &BarChart, x: f64) -> String {
    let i = x.floor();
    if i >= 0.0 && (i as usize) < c.categories.len() {
        c.categories[i as usize].clone()
    } else {
        String::new()
    }
}

/// Compact value text for a bar.
fn value_text(v: f64) -> String {
    match v.abs() {
        a if a >= 100.0 => format!("{v:.0}"),
        a if a >= 10.0 => format!("{v:.1}"),
        _ => format!("{v:.2}"),
    }
}

/// Axis tick text: no decimals for whole numbers, else up to two.
fn tick_text(v: f64) -> String {
    if v.fract() == 0.0 {
        format!("{v:.0}")
    } else {
        let t = format!("{v:.2}");
        t.trim_end_matches('0').trim_end_matches('.').to_string()
    }
}

/// The x extent of bar `j` of `n` in group `i`.
fn bar_span(i: usize, j: usize, n: usize) -> (f64, f64) {
    let w = GROUP_WIDTH / n as f64;
    let x0 = i as f64 + (1.0 - GROUP_WIDTH) / 2.0 + j as f64 * w;
    (x0, x0 + w)
}

/// Draws one chart (axes, bars, legend, value labels) into `area`.
fn draw_chart(c: &BarChart, area: &DrawingArea<BitMapBackend<'_>, Shift>) -> Result<(), String> {
    let (_, h) = area.dim_in_pixel();
    let font = (h / 28).clamp(11, 22);
    let mut chart = ChartBuilder::on(area)
        .caption(&c.title, ("sans-serif", font + 4))
        .margin(10)
        .x_label_area_size(font * 3)
        .y_label_area_size(font * 5)
        .build_cartesian_2d(
            CategoryAxis {
                n: c.categories.len(),
            },
            value_range(c),
        )
        .map_err(err)?;
    let names = |x: &f64| category_name(c, *x);
    chart
        .configure_mesh()
        .disable_x_mesh()
        .x_label_formatter(&names)
        .y_label_formatter(&|v| tick_text(*v))
        .light_line_style(WHITE)
        .x_desc(&c.x_label)
        .y_desc(&c.y_label)
        .label_style(("sans-serif", font))
        .axis_desc_style(("sans-serif", font))
        .draw()
        .map_err(err)?;
    let n = c.series.len();
    for (j, s) in c.series.iter().enumerate() {
        let colour = PALETTE[j % PALETTE.len()];
        let bars = s
            .values
            .iter()
            .enumerate()
            .filter(|(_, v)| v.is_finite())
            .map(move |(i, &v)| {
                let (x0, x1) = bar_span(i, j, n);
                Rectangle::new([(x0, 0.0), (x1, v)], colour.filled())
            });
        chart
            .draw_series(bars)
            .map_err(err)?
            .label(s.name.as_str())
            .legend(move |(x, y)| Rectangle::new([(x, y - 5), (x + 10, y + 5)], colour.filled()));
    }
    if n * c.categories.len() <= MAX_VALUE_LABELS {
        draw_value_labels(c, &mut chart, font)?;
    }
    chart
        .configure_series_labels()
        .background_style(WHITE.mix(0.85))
        .border_style(BLACK)
        .label_font(("sans-serif", font))
        .position(SeriesLabelPosition::UpperRight)
        .draw()
        .map_err(err)
}

/// Writes each finite value above (or below, if negative) its bar.
fn draw_value_labels(
    c: &BarChart,
    chart: &mut ChartContext<'_, BitMapBackend<'_>, Cartesian2d<CategoryAxis, RangedCoordf64>>,
    font: u32,
) -> Result<(), String> {
    let n = c.series.len();
    let style = TextStyle::from(("sans-serif", font.saturating_sub(2).max(9)).into_font()).pos(
        plotters::style::text_anchor::Pos::new(
            plotters::style::text_anchor::HPos::Center,
            plotters::style::text_anchor::VPos::Bottom,
        ),
    );
    for (j, s) in c.series.iter().enumerate() {
        let labels = s
            .values
            .iter()
            .enumerate()
            .filter(|(_, v)| v.is_finite())
            .map(|(i, &v)| {
                let (x0, x1) = bar_span(i, j, n);
                Text::new(value_text(v), ((x0 + x1) / 2.0, v), style.clone())
            });
        chart.draw_series(labels).map_err(err)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table3() -> BarChart {
        let s = |name: &str, v: [f64; 3]| Series {
            name: name.into(),
            values: v.to_vec(),
        };
        BarChart {
            title: "Table 3: synthetic benchmark".into(),
            x_label: "S".into(),
            y_label: "WCET (k cycles)".into(),
            categories: vec!["1".into(), "3".into(), "7".into()],
            series: vec![
                s("No split", [680.0, 680.0, 680.0]),
                s("DWS", [600.0, 870.0, 1440.0]),
                s("PWS", [300.0, 220.0, 180.0]),
            ],
        }
    }

    /// (width, height) from a PNG's IHDR, after checking the signature.
    fn png_size(bytes: &[u8]) -> (u32, u32) {
        assert!(bytes.len() > 24);
        assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n");
        assert_eq!(&bytes[12..16], b"IHDR");
        let be = |b: &[u8]| u32::from_be_bytes([b[0], b[1], b[2], b[3]]);
        (be(&bytes[16..20]), be(&bytes[20..24]))
    }

    #[test]
    fn renders_png_of_the_asked_size() {
        let dir = tempfile::tempdir().unwrap();
        let a = dir.path().join("a.png");
        bar_chart_png(&table3(), &a, 640, 400).unwrap();
        let bytes_a = std::fs::read(&a).unwrap();
        assert_eq!(png_size(&bytes_a), (640, 400));
        // A blank (single-colour) 640×400 PNG compresses to well under 2 KB.
        assert!(bytes_a.len() > 4096, "{} bytes", bytes_a.len());
        let mut other = table3();
        other.series[2].values[0] = 50.0;
        let b = dir.path().join("b.png");
        bar_chart_png(&other, &b, 640, 400).unwrap();
        assert_ne!(bytes_a, std::fs::read(&b).unwrap());
        // Two panels.
        let speedups = BarChart {
            title: "Speedup".into(),
            x_label: "benchmark".into(),
            y_label: "×".into(),
            categories: vec!["bfs".into(), "nn".into()],
            series: vec![Series {
                name: "PWS S=1".into(),
                values: vec![3.0, 0.97],
            }],
        };
        let two = dir.path().join("two.png");
        bar_charts_png(&[table3(), speedups], &two, 800, 900).unwrap();
        assert_eq!(png_size(&std::fs::read(&two).unwrap()), (800, 900));
        if let Ok(p) = std::env::var("RTGPU_PLOT_SAMPLE") {
            std::fs::copy(&two, p).unwrap();
        }
    }

    #[test]
    fn tick_text_drops_trailing_zeros_and_point() {
        assert_eq!(tick_text(2.000_000_1), "2");
        assert_eq!(tick_text(1.25), "1.25");
        assert_eq!(tick_text(0.5), "0.5");
        assert_eq!(tick_text(40.0), "40");
    }

    #[test]
    fn missing_font_names_the_package() {
        let e = read_font("/nonexistent/DejaVuSans.ttf").unwrap_err();
        assert!(e.contains(FONT_PACKAGE), "{e}");
    }

    #[test]
    fn bad_input_is_an_error() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("x.png");
        let mut c = table3();
        c.series[0].values.pop();
        assert!(bar_chart_png(&c, &p, 100, 100)
            .unwrap_err()
            .contains("2 values for 3 categories"));
        assert!(bar_charts_png(&[], &p, 100, 100).is_err());
        assert!(bar_chart_png(&table3(), &p, 0, 100).is_err());
        let empty = BarChart {
            categories: vec![],
            ..table3()
        };
        assert!(bar_chart_png(&empty, &p, 100, 100).is_err());
        // Non-finite and all-zero values draw, without panicking.
        let mut odd = table3();
        odd.series.iter_mut().for_each(|s| s.values.fill(0.0));
        odd.series[0].values[1] = f64::NAN;
        bar_chart_png(&odd, &p, 300, 200).unwrap();
        assert!(!p.exists() || std::fs::metadata(&p).unwrap().len() > 0);
    }
}
