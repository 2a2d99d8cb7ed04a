//! Numbers and strings within their limits: bounds (both dialects of `exclusiveMinimum`),
//! `multipleOf` read as an exact decimal, formats, patterns and lengths in characters, with
//! plausible values chosen by property name where that is cheap.

use base64::Engine as _;
use serde_json::Value;

use super::shape::Shape;
use super::{Run, describe};
use playground_openapi::schema::Bound;

/// Strings are at most this long unless `minLength` asks for more...
const DEFAULT_STRING: usize = 256;
/// ...and never longer than this.
pub(super) const MAX_STRING: usize = 4_096;

const WORDS: [&str; 16] = [
    "amber", "birch", "cobalt", "delta", "ember", "fern", "granite", "harbor", "indigo", "juniper",
    "kestrel", "lumen", "meadow", "nimbus", "orchid", "pebble",
];
const FIRST: [&str; 8] = ["Alice", "Bruno", "Chen", "Dana", "Emeka", "Freya", "Goran", "Hana"];
const LAST: [&str; 8] = ["Martin", "Okafor", "Silva", "Novak", "Tanaka", "Berg", "Moreau", "Khan"];
const CITIES: [&str; 6] = ["Lisbon", "Osaka", "Nairobi", "Toronto", "Utrecht", "Valparaiso"];

impl Run<'_> {
    /// An integer within the bounds, a multiple of every `multipleOf`, plausible for `name`.
    pub(super) fn integer(&mut self, shape: &Shape<'_>, name: Option<&str>) -> Value {
        let (mut low, mut high) = (i128::from(i64::MIN), i128::from(i64::MAX));
        if shape.format() == Some("int32") {
            (low, high) = (i128::from(i32::MIN), i128::from(i32::MAX));
        }
        if let Some(bound) = shape.lower() {
            low = low.max(integer_above(&bound));
        }
        if let Some(bound) = shape.upper() {
            high = high.min(integer_below(&bound));
        }
        let step = self.integer_step(shape);
        let (want_low, want_high) = plausible_integers(name);
        let value = self.pick_multiple(low, high, (want_low, want_high), step);
        let value = value.unwrap_or_else(|| {
            self.note(format!(
                "no integer satisfies the bounds and multipleOf ({low} to {high}, step {step})"
            ));
            low.clamp(i128::from(i64::MIN), i128::from(i64::MAX))
        });
        i64::try_from(value).map_or(Value::Null, Value::from)
    }

    /// A multiple of `step` in `low..=high`, inside the plausible window when one is there.
    fn pick_multiple(&mut self, low: i128, high: i128, want: (i128, i128), step: i128) -> Option<i128> {
        if low > high || step <= 0 {
            return None;
        }
        // The window: the plausible range where it meets the bounds, else 100 steps from a bound.
        let span = 100_i128.saturating_mul(step);
        let (mut from, mut to) = (low.max(want.0), high.min(want.1));
        if from > to {
            (from, to) = if want.1 < low {
                (low, low.saturating_add(span).min(high))
            } else {
                (high.saturating_sub(span).max(low), high)
            };
        }
        for (a, b) in [(from, to), (low, high)] {
            let first = a.div_euclid(step) + i128::from(a.rem_euclid(step) != 0);
            let last = b.div_euclid(step);
            if first <= last {
                return Some(self.rng.between(first, last).saturating_mul(step));
            }
        }
        None
    }

    /// The step integers must keep: the least common multiple of every `multipleOf`, in
    /// integers (`multipleOf: 0.5` lets every integer through).
    fn integer_step(&mut self, shape: &Shape<'_>) -> i128 {
        let mut step: i128 = 1;
        for multiple in shape.get("multipleOf") {
            match decimal(multiple).filter(|(m, _)| *m > 0) {
                Some((mantissa, scale)) => {
                    let denominator = 10_i128.checked_pow(scale).unwrap_or(1);
                    let numerator = mantissa / gcd(mantissa, denominator);
                    step = lcm(step, numerator).unwrap_or_else(|| {
                        self.note("the multipleOf values have no common multiple in range".to_owned());
                        step
                    });
                }
                None => self.note(format!("the multipleOf {} is not a positive number", describe(multiple))),
            }
        }
        step
    }

    /// A number within the bounds and every `multipleOf`: two decimals when nothing asks for
    /// another step.
    pub(super) fn number(&mut self, shape: &Shape<'_>, name: Option<&str>) -> Value {
        let lower = shape.lower();
        let upper = shape.upper();
        let mut steps = Vec::new();
        for multiple in shape.get("multipleOf") {
            match decimal(multiple).filter(|(m, _)| *m > 0) {
                Some(step) => steps.push(step),
                None => self.note(format!("the multipleOf {} is not a positive number", describe(multiple))),
            }
        }
        let (mantissa, scale) = match steps.split_first() {
            None => (1, 2),
            Some((first, rest)) => {
                rest.iter().try_fold(*first, |a, b| common_multiple(a, *b)).unwrap_or_else(|| {
                    self.note("the multipleOf values have no common multiple in range".to_owned());
                    *first
                })
            }
        };
        // Work in steps of mantissa / 10^scale: k steps is the number k·mantissa / 10^scale.
        let unit = mantissa as f64 / 10_f64.powi(i32::try_from(scale).unwrap_or(0));
        let low = lower.as_ref().map_or(-1e15, |b| {
            let k = (b.value / unit).ceil();
            if b.exclusive && k * unit <= b.value { k + 1.0 } else { k }
        });
        let high = upper.as_ref().map_or(1e15, |b| {
            let k = (b.value / unit).floor();
            if b.exclusive && k * unit >= b.value { k - 1.0 } else { k }
        });
        if !(low.abs() <= 1e15 && high.abs() <= 1e15 && low <= high) {
            return self.edge_number(lower.as_ref(), upper.as_ref(), steps.is_empty());
        }
        let (want_low, want_high) = plausible_numbers(name);
        // Within ±1e15 (checked above) or saturating: the casts cannot wrap.
        #[allow(clippy::cast_possible_truncation)]
        let (low, high, want) = (
            low as i128,
            high as i128,
            ((want_low / unit).ceil() as i128, (want_high / unit).floor() as i128),
        );
        let Some(k) = self.pick_multiple(low, high, want, 1) else {
            return self.edge_number(lower.as_ref(), upper.as_ref(), steps.is_empty());
        };
        serde_json::Number::from_f64(decimal_value(k.saturating_mul(mantissa), scale))
            .map_or(Value::from(0), Value::Number)
    }

    /// A number for bounds too far out or too close for steps: a bound itself, or just
    /// inside one, when that satisfies both.
    fn edge_number(&mut self, lower: Option<&Bound>, upper: Option<&Bound>, free: bool) -> Value {
        let allows = |v: f64| {
            v.is_finite()
                && lower.is_none_or(|b| if b.exclusive { v > b.value } else { v >= b.value })
                && upper.is_none_or(|b| if b.exclusive { v < b.value } else { v <= b.value })
        };
        let mut candidates = Vec::new();
        if let Some(b) = lower {
            candidates.extend([b.value, b.value.next_up()]);
        }
        if let Some(b) = upper {
            candidates.extend([b.value, b.value.next_down()]);
        }
        if let (Some(l), Some(u)) = (lower, upper) {
            candidates.push(l.value / 2.0 + u.value / 2.0);
        }
        let found = candidates.into_iter().find(|v| allows(*v));
        match found.and_then(serde_json::Number::from_f64) {
            Some(n) if free => Value::Number(n),
            other => {
                let (l, h) = (lower.map_or("-∞", |b| &b.written), upper.map_or("∞", |b| &b.written));
                self.note(format!(
                    "no number from {l} to {h} was found that is a multiple of the multipleOf"
                ));
                other.map_or(Value::from(0), Value::Number)
            }
        }
    }

    /// A string: from its pattern, its format, its property name or words, within its
    /// lengths.
    pub(super) fn string(&mut self, shape: &Shape<'_>, name: Option<&str>) -> String {
        let min_asked = shape.at_least("minLength").unwrap_or(0);
        let mut min = usize::try_from(min_asked).unwrap_or(usize::MAX);
        if min > MAX_STRING {
            self.note(format!("a string of at least {min_asked} characters is shortened to {MAX_STRING}"));
            min = MAX_STRING;
        }
        let mut max =
            shape.at_most("maxLength").map_or(usize::MAX, |m| usize::try_from(m).unwrap_or(usize::MAX));
        if max < min {
            self.note(format!("a string cannot be at least {min} and at most {max} characters long"));
            max = min;
        }
        // Generated strings stay short unless minLength asks for more.
        let max = max.min(min.max(DEFAULT_STRING));
        let patterns = shape.patterns();
        let format = shape.format().filter(|f| is_string_format(f));
        if let Some(format) = format {
            let value = self.formatted(format, name, min, max);
            // The same value in the other case too: a UUID's pattern may ask for upper case.
            for candidate in [value.clone(), value.to_ascii_uppercase()] {
                if fits(&candidate, min, max)
                    && patterns.iter().all(|p| self.matches(p, &candidate).unwrap_or(false))
                {
                    return candidate;
                }
            }
            if patterns.is_empty() {
                self.note(format!("a {format} string cannot be {min} to {max} characters long"));
                return value;
            }
        }
        if let Some((first, rest)) = patterns.split_first() {
            return self.patterned(first, rest, min, max);
        }
        if let Some(value) = name.and_then(|n| self.by_name(n)).filter(|v| fits(v, min, max)) {
            return value;
        }
        let mut text = self.word().to_owned();
        let want = min.min(max);
        while text.chars().count() < want {
            text.push(' ');
            text.push_str(self.word());
        }
        cut(text, max)
    }

    pub(super) fn word(&mut self) -> &'static str {
        WORDS.get(self.rng.below(WORDS.len())).copied().unwrap_or("amber")
    }

    fn pick(&mut self, list: &[&'static str]) -> &'static str {
        list.get(self.rng.below(list.len())).copied().unwrap_or("")
    }

    /// A plausible string for a property called `name`, when its name says what it holds.
    fn by_name(&mut self, name: &str) -> Option<String> {
        let key: String =
            name.chars().filter(char::is_ascii_alphanumeric).collect::<String>().to_ascii_lowercase();
        let ends = |s: &str| key.ends_with(s);
        let value = if key.contains("email") {
            self.formatted("email", None, 0, usize::MAX)
        } else if ends("url") || ends("uri") || ends("link") || ends("href") || key == "website" {
            self.formatted("uri", None, 0, usize::MAX)
        } else if key.contains("firstname") || key.contains("givenname") {
            self.pick(&FIRST).to_owned()
        } else if key.contains("lastname") || key.contains("surname") || key.contains("familyname") {
            self.pick(&LAST).to_owned()
        } else if key == "username" || key == "login" || key == "nickname" || key == "handle" {
            format!("{}{}", self.pick(&FIRST).to_ascii_lowercase(), self.rng.below(90) + 10)
        } else if key == "name" || key.ends_with("fullname") || key == "displayname" {
            format!("{} {}", self.pick(&FIRST), self.pick(&LAST))
        } else if key.contains("phone") || key == "mobile" {
            format!("+1555{:07}", self.rng.below(10_000_000))
        } else if key == "city" || key == "town" {
            self.pick(&CITIES).to_owned()
        } else if key.contains("country") {
            self.pick(&["PT", "JP", "KE", "CA", "NL", "CL"]).to_owned()
        } else if key.contains("currency") {
            self.pick(&["EUR", "USD", "JPY", "KES"]).to_owned()
        } else if key == "title" || key == "headline" || key == "subject" {
            format!("The {} {}", capitalized(self.word()), capitalized(self.word()))
        } else if key == "street"
            || key.contains("address1")
            || key == "addressline"
            || key == "streetaddress"
        {
            format!("{} {} Street", 1 + self.rng.below(200), capitalized(self.word()))
        } else if key.contains("postcode")
            || key.contains("postalcode")
            || key.contains("zipcode")
            || key == "zip"
        {
            format!("{:05}", 10_000 + self.rng.below(89_999))
        } else if key == "company"
            || key.contains("companyname")
            || key == "organization"
            || key == "organisation"
        {
            format!("{} {}", capitalized(self.word()), self.pick(&["Ltd", "Inc", "GmbH", "Labs"]))
        } else if key == "language" || key == "locale" || key == "lang" {
            self.pick(&["en", "pt", "ja", "sw", "fr", "nl"]).to_owned()
        } else if key == "timezone" || key == "tz" {
            self.pick(&["Europe/Lisbon", "Asia/Tokyo", "Africa/Nairobi", "America/Toronto"]).to_owned()
        } else if key == "color" || key == "colour" {
            format!("#{:06x}", self.rng.below(0x0100_0000))
        } else if key == "slug" {
            format!("{}-{}", self.word(), self.word())
        } else if key.contains("description") || key == "summary" || key == "comment" || key == "message" {
            format!("A {} {} by the {}.", self.word(), self.word(), self.word())
        } else if key == "id" || ends("id") || key == "uid" {
            // Letters and digits only: an id travels to other operations, whose parameters often
            // allow only word characters (`^[a-zA-Z0-9_]+$`) or slugs (`^[a-z0-9-]+$`).
            format!("{}{:04}", self.word(), self.rng.below(10_000))
        } else if key.contains("password") || key.contains("secret") || key.contains("token") {
            self.alphanumeric(16)
        } else {
            return None;
        };
        Some(value)
    }

    fn alphanumeric(&mut self, len: usize) -> String {
        const CHARS: &[u8] = b"ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789";
        (0..len)
            .map(|_| char::from(CHARS.get(self.rng.below(CHARS.len())).copied().unwrap_or(b'x')))
            .collect()
    }

    /// A value of a string `format` the generator knows, padded towards `min` where the
    /// format leaves room (a URI's path, an email's local part).
    fn formatted(&mut self, format: &str, name: Option<&str>, min: usize, max: usize) -> String {
        let r = &mut self.rng;
        let (year, month, day) = (2020 + r.below(7), 1 + r.below(12), 1 + r.below(28));
        let (hour, minute, second) = (r.below(24), r.below(60), r.below(60));
        match format {
            "date-time" => format!("{year}-{month:02}-{day:02}T{hour:02}:{minute:02}:{second:02}Z"),
            "date" => format!("{year}-{month:02}-{day:02}"),
            "time" => format!("{hour:02}:{minute:02}:{second:02}Z"),
            "duration" => format!("P{}D", 1 + r.below(30)),
            "email" | "idn-email" => {
                let mut local = format!("{}.{}", self.pick(&FIRST), self.pick(&LAST)).to_ascii_lowercase();
                pad(&mut local, min.saturating_sub(12), 64);
                format!("{local}@example.com")
            }
            "uri" | "url" | "iri" | "uri-reference" | "iri-reference" => {
                let mut path = name.map_or_else(|| self.word().to_owned(), str::to_ascii_lowercase);
                path.retain(|c| c.is_ascii_alphanumeric());
                pad(&mut path, min.saturating_sub(20), max.saturating_sub(20).max(1));
                format!("https://example.com/{path}")
            }
            "uri-template" => "https://example.com/items/{id}".to_owned(),
            "hostname" | "idn-hostname" => format!("{}.example.com", self.word()),
            "uuid" => {
                let (a, b) = (self.rng.next(), self.rng.next());
                let b = (b & 0x3FFF_FFFF_FFFF_FFFF) | 0x8000_0000_0000_0000;
                format!(
                    "{:08x}-{:04x}-4{:03x}-{:04x}-{:012x}",
                    a >> 32,
                    (a >> 16) & 0xFFFF,
                    a & 0x0FFF,
                    b >> 48,
                    b & 0xFFFF_FFFF_FFFF
                )
            }
            "ipv4" => format!("192.0.2.{}", 1 + r.below(254)),
            "ipv6" => format!("2001:db8::{:x}", 1 + r.below(0xFFFE)),
            "byte" => {
                // 4 characters for every 3 bytes.
                let chars = min.div_ceil(4).max(if max >= 12 { 3 } else { 1 }) * 4;
                let bytes: Vec<u8> = (0..chars / 4 * 3).map(|_| (self.rng.next() & 0xFF) as u8).collect();
                base64::engine::general_purpose::STANDARD.encode(bytes)
            }
            "json-pointer" => format!("/{}/0", self.word()),
            "relative-json-pointer" => format!("0/{}", self.word()),
            "regex" => "^[a-z]+$".to_owned(),
            "password" => self.alphanumeric(min.clamp(12, MAX_STRING).min(max)),
            "int32" | "int64" => (1 + r.below(100_000)).to_string(),
            "decimal" | "double" | "float" | "number" => format!("{}.{:02}", r.below(1000), r.below(100)),
            // binary and anything else: free text.
            _ => {
                let mut text = self.word().to_owned();
                pad(&mut text, min, max);
                text
            }
        }
    }
}

/// `word` with its first letter upper case.
fn capitalized(word: &str) -> String {
    let mut chars = word.chars();
    chars.next().map(|first| first.to_ascii_uppercase().to_string() + chars.as_str()).unwrap_or_default()
}

/// Whether a `format` constrains strings (numeric formats are for numbers).
fn is_string_format(format: &str) -> bool {
    !matches!(format, "int32" | "int64" | "float" | "double")
}

/// Whether `text` is `min..=max` characters long.
pub(super) fn fits(text: &str, min: usize, max: usize) -> bool {
    let n = text.chars().count();
    n >= min && n <= max
}

/// `text` cut to `max` characters.
pub(super) fn cut(mut text: String, max: usize) -> String {
    if let Some((at, _)) = text.char_indices().nth(max) {
        text.truncate(at);
    }
    text
}

/// Pads `text` with letters to `min` characters, never beyond `max`.
fn pad(text: &mut String, min: usize, max: usize) {
    let target = min.min(max).min(MAX_STRING);
    let mut letters = b"abcdefghijklmnopqrstuvwxyz".iter().cycle();
    while text.chars().count() < target {
        text.push(char::from(letters.next().copied().unwrap_or(b'x')));
    }
}

/// The smallest integer a lower bound allows.
fn integer_above(bound: &Bound) -> i128 {
    let v = bound.value;
    if v.is_nan() {
        return i128::MIN;
    }
    #[allow(clippy::cast_possible_truncation)] // saturating float-to-int casts
    let floor = v.floor().clamp(-1e30, 1e30) as i128;
    if bound.exclusive || v.fract() != 0.0 { floor + 1 } else { floor }
}

/// The largest integer an upper bound allows.
fn integer_below(bound: &Bound) -> i128 {
    let v = bound.value;
    if v.is_nan() {
        return i128::MAX;
    }
    #[allow(clippy::cast_possible_truncation)]
    let ceil = v.ceil().clamp(-1e30, 1e30) as i128;
    if bound.exclusive || v.fract() != 0.0 { ceil - 1 } else { ceil }
}

/// The range integers are picked from unless the bounds say otherwise.
fn plausible_integers(name: Option<&str>) -> (i128, i128) {
    let key = name.unwrap_or("").to_ascii_lowercase();
    if key == "id" || key.ends_with("id") || key.ends_with("_id") {
        (1, 1000)
    } else if key.contains("year") {
        (2000, 2026)
    } else if key.contains("age") && !key.contains("page") {
        (1, 90)
    } else if key.contains("count")
        || key.contains("quantity")
        || key.contains("size")
        || key.contains("page")
    {
        (1, 20)
    } else {
        (0, 100)
    }
}

/// The range numbers are picked from unless the bounds say otherwise.
fn plausible_numbers(name: Option<&str>) -> (f64, f64) {
    let key = name.unwrap_or("").to_ascii_lowercase();
    if key.starts_with("lat") {
        (-90.0, 90.0)
    } else if key.starts_with("lon") || key.starts_with("lng") {
        (-180.0, 180.0)
    } else if key.contains("price") || key.contains("amount") || key.contains("cost") || key.contains("total")
    {
        (1.0, 500.0)
    } else {
        (0.0, 100.0)
    }
}

/// A JSON number as an exact decimal, `mantissa / 10^scale` (`0.01` is `(1, 2)`), from its
/// shortest written form; `None` for what is not a number or does not fit.
pub(super) fn decimal(value: &Value) -> Option<(i128, u32)> {
    let number = value.as_f64()?;
    if !number.is_finite() {
        return None;
    }
    // The shortest digits that read back as `number` (serde_json writes them: "0.01", "1e-7",
    // "1.5e+20"), without the trailing zero of "100.0".
    let text = serde_json::Number::from_f64(number)?.to_string();
    let (digits, exponent) = text.split_once('e').unwrap_or((&text, "0"));
    let exponent: i32 = exponent.parse().ok()?;
    let (whole, fraction) = digits.split_once('.').unwrap_or((digits, ""));
    let fraction = fraction.trim_end_matches('0');
    let mantissa: i128 = format!("{whole}{fraction}").parse().ok()?;
    let places = i32::try_from(fraction.len()).ok()? - exponent;
    if places >= 0 {
        Some((mantissa, u32::try_from(places).ok().filter(|p| *p <= 30)?))
    } else {
        let factor = 10_i128.checked_pow(u32::try_from(-places).ok()?)?;
        Some((mantissa.checked_mul(factor)?, 0))
    }
}

/// The number `digits / 10^scale`, as the decimal it means: correctly rounded (what reading
/// its text gives) wherever both are exact in a float (`digits` within 2^53 once its
/// trailing zeros are taken out, `scale` at most 22), and within a few units of the float's
/// last place beyond (a `multipleOf` is checked with a tolerance larger than that). Computed
/// without the standard library's decimal parser, whose tables the modules with the
/// generator would carry for this alone.
pub(super) fn decimal_value(mut digits: i128, mut scale: u32) -> f64 {
    /// The powers of ten a float holds exactly.
    const EXACT: [f64; 23] = [
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17,
        1e18, 1e19, 1e20, 1e21, 1e22,
    ];
    while scale > 0 && digits % 10 == 0 {
        digits /= 10;
        scale -= 1;
    }
    // Exact below 2^53; past it, the nearest float.
    #[allow(clippy::cast_precision_loss)]
    let mut value = digits as f64;
    while scale > 22 {
        value /= EXACT[22];
        scale -= 22;
    }
    value / EXACT[scale as usize]
}

/// The least common multiple of two decimals.
fn common_multiple(a: (i128, u32), b: (i128, u32)) -> Option<(i128, u32)> {
    let scale = a.1.max(b.1);
    let lift = |(m, s): (i128, u32)| m.checked_mul(10_i128.checked_pow(scale - s)?);
    Some((lcm(lift(a)?, lift(b)?)?, scale))
}

fn gcd(mut a: i128, mut b: i128) -> i128 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a.abs().max(1)
}

fn lcm(a: i128, b: i128) -> Option<i128> {
    (a / gcd(a, b)).checked_mul(b).filter(|m| *m > 0 && *m < 1_000_000_000_000_000)
}
