//! The four troubleshooting answers: always there, each with where its symptom applies now.

mod common;

use playground_domains::*;

use common::*;

fn by_symptom(d: &Dashboard, now: u64) -> Vec<(&'static str, Vec<String>)> {
    d.troubleshooting(now).into_iter().map(|t| (t.symptom.key(), t.applies_to)).collect()
}

#[test]
fn all_four_answers_are_there_with_nothing_attached() {
    let d = Dashboard::new(settings());
    let answers = d.troubleshooting(0);
    assert_eq!(answers.iter().map(|t| t.symptom).collect::<Vec<_>>(), Symptom::ALL);
    assert!(answers.iter().all(|t| t.applies_to.is_empty() && !t.answer.is_empty()));
    assert!(answers[1].answer.contains("0 issue \"letsencrypt.org\""), "{}", answers[1].answer);
    assert!(answers[2].answer.contains("private window"));
    assert!(answers[3].answer.contains("curl -I"));
}

#[test]
fn each_answer_names_the_domains_its_symptom_applies_to() {
    let mut d = Dashboard::new(settings());
    let mut zone = SimulatedZone::new();
    for name in ["docs.example.com", "www.example.com", "old.example.com", "new.example.com"] {
        d.add(name, 0, &idna).unwrap();
    }
    for name in ["docs.example.com", "www.example.com", "old.example.com"] {
        zone.add(rec(name, RecordKind::Cname, TARGET)).unwrap();
        d.verify(name, 0, &zone).unwrap();
    }
    d.tick(120, &zone);
    d.set_primary("docs.example.com").unwrap();
    // www is live again after a re-verify, waiting for its new certificate for 40 minutes.
    d.settings.certificate_delay_secs = 86_400;
    d.reverify("www.example.com", 1000, &zone).unwrap();
    d.add("later.example.com", 3000, &idna).unwrap();
    zone.add(rec("later.example.com", RecordKind::Cname, TARGET)).unwrap();
    d.verify("later.example.com", 3000, &zone).unwrap();
    let now = 3400;
    assert_eq!(
        by_symptom(&d, now),
        vec![
            ("verification", vec!["new.example.com: not verified yet".to_owned()]),
            (
                "certificate",
                vec![
                    "www.example.com: verified 40 min ago, overdue".to_owned(),
                    "later.example.com: verified 7 min ago".to_owned(),
                ]
            ),
            (
                "private-connection",
                vec![
                    "https://docs.example.com/".to_owned(),
                    "https://www.example.com/ (certificate being issued, serving with its current one)"
                        .to_owned(),
                    "https://old.example.com/".to_owned(),
                    "https://later.example.com/ (certificate being issued)".to_owned(),
                ]
            ),
            (
                "redirects",
                vec![
                    "www.example.com \u{2192} docs.example.com: curl -I https://www.example.com/".to_owned(),
                    "old.example.com \u{2192} docs.example.com: curl -I https://old.example.com/".to_owned(),
                ]
            ),
        ]
    );
}
