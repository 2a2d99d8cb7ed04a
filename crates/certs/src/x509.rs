//! Just enough DER to read a certificate's validity (RFC 5280 section 4.1), so that no X.509
//! parser joins the build for two dates.

/// One DER element: its tag, its contents and what follows it.
fn element(input: &[u8]) -> Option<(u8, &[u8], &[u8])> {
    let (&tag, rest) = input.split_first()?;
    let (&first, rest) = rest.split_first()?;
    let (len, rest) = if first < 0x80 {
        (usize::from(first), rest)
    } else {
        let count = usize::from(first & 0x7f);
        if count == 0 || count > 4 || rest.len() < count {
            return None;
        }
        let len = rest[..count].iter().fold(0usize, |acc, &b| (acc << 8) | usize::from(b));
        (len, &rest[count..])
    };
    if rest.len() < len {
        return None;
    }
    Some((tag, &rest[..len], &rest[len..]))
}

const SEQUENCE: u8 = 0x30;
const UTC_TIME: u8 = 0x17;
const GENERALIZED_TIME: u8 = 0x18;
const VERSION: u8 = 0xa0;

/// `notBefore` and `notAfter` of a DER certificate, in Unix seconds.
pub(crate) fn validity(der: &[u8]) -> Option<(i64, i64)> {
    let (SEQUENCE, certificate, _) = element(der)? else { return None };
    let (SEQUENCE, tbs, _) = element(certificate)? else { return None };
    let mut rest = tbs;
    let (tag, _, after) = element(rest)?;
    if tag == VERSION {
        rest = after;
    }
    // serialNumber, signature, issuer
    for _ in 0..3 {
        rest = element(rest)?.2;
    }
    let (SEQUENCE, validity, _) = element(rest)? else { return None };
    let (tag, not_before, rest) = element(validity)?;
    let not_before = time(tag, not_before)?;
    let (tag, not_after, _) = element(rest)?;
    Some((not_before, time(tag, not_after)?))
}

/// A UTCTime (`YYMMDDHHMMSSZ`) or GeneralizedTime (`YYYYMMDDHHMMSSZ`) in Unix seconds.
fn time(tag: u8, text: &[u8]) -> Option<i64> {
    let text = std::str::from_utf8(text).ok()?.strip_suffix('Z')?;
    if !text.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let number = |range: std::ops::Range<usize>| text.get(range)?.parse::<i64>().ok();
    let (year, rest) = match (tag, text.len()) {
        (UTC_TIME, 12) => {
            let yy = number(0..2)?;
            (if yy >= 50 { 1900 + yy } else { 2000 + yy }, 2)
        }
        (GENERALIZED_TIME, 14) => (number(0..4)?, 4),
        _ => return None,
    };
    let month = number(rest..rest + 2)?;
    let day = number(rest + 2..rest + 4)?;
    let hour = number(rest + 4..rest + 6)?;
    let minute = number(rest + 6..rest + 8)?;
    let second = number(rest + 8..rest + 10)?;
    if !(1..=12).contains(&month) || !(1..=31).contains(&day) || hour > 23 || minute > 59 || second > 60 {
        return None;
    }
    Some(days_from_civil(year, month, day) * 86_400 + hour * 3600 + minute * 60 + second)
}

/// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm).
fn days_from_civil(year: i64, month: i64, day: i64) -> i64 {
    let year = if month <= 2 { year - 1 } else { year };
    let era = year.div_euclid(400);
    let year_of_era = year - era * 400;
    let day_of_year = (153 * (month + if month > 2 { -3 } else { 9 }) + 2) / 5 + day - 1;
    let day_of_era = year_of_era * 365 + year_of_era / 4 - year_of_era / 100 + day_of_year;
    era * 146_097 + day_of_era - 719_468
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_convert_to_unix_seconds() {
        assert_eq!(days_from_civil(1970, 1, 1), 0);
        assert_eq!(time(UTC_TIME, b"000301000000Z"), Some(951_868_800));
        assert_eq!(time(GENERALIZED_TIME, b"20500101000000Z"), Some(2_524_608_000));
        assert_eq!(time(UTC_TIME, b"491231235959Z"), Some(2_524_607_999));
        assert_eq!(time(UTC_TIME, b"991231235959Z"), Some(946_684_799));
        assert_eq!(time(UTC_TIME, b"991331235959Z"), None);
        assert_eq!(time(UTC_TIME, b"99123123595Z"), None);
        assert_eq!(time(GENERALIZED_TIME, b"2050010100000+Z"), None);
    }

    #[test]
    fn the_validity_of_a_generated_certificate_is_read_back() {
        let key = rcgen::KeyPair::generate().unwrap();
        let mut params = rcgen::CertificateParams::new(vec!["docs.example.com".to_owned()]).unwrap();
        params.not_before = rcgen::date_time_ymd(2026, 1, 2);
        params.not_after = rcgen::date_time_ymd(2051, 4, 1);
        let cert = params.self_signed(&key).unwrap();
        let expected = (days_from_civil(2026, 1, 2) * 86_400, days_from_civil(2051, 4, 1) * 86_400);
        assert_eq!(validity(cert.der()), Some(expected));
    }

    #[test]
    fn garbage_and_truncated_input_give_none() {
        assert_eq!(validity(b""), None);
        assert_eq!(validity(&[0x30, 0x84, 0xff, 0xff, 0xff, 0xff]), None);
        assert_eq!(validity(&[0x30, 0x03, 0x30, 0x01]), None);
        let key = rcgen::KeyPair::generate().unwrap();
        let params = rcgen::CertificateParams::new(vec!["a.test".to_owned()]).unwrap();
        let der = params.self_signed(&key).unwrap().der().to_vec();
        for cut in 0..der.len() {
            let _ = validity(&der[..cut]);
        }
    }
}
