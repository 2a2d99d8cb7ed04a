//! The certificate part of a domain's card: not requested, being issued, blocked by CAA,
//! overdue with the troubleshooting steps, or issued.

use leptos::prelude::*;
use playground_domains::CertificateStatus;

fn minutes(secs: u64) -> String {
    match secs {
        0..=59 => "less than a minute".to_owned(),
        60..=119 => "about a minute".to_owned(),
        _ => format!("about {} minutes", secs.div_ceil(60)),
    }
}

/// What the card says about the certificate at `now`; `authority` is the CAA name to allow.
pub fn certificate_view(status: CertificateStatus, now: u64, authority: String) -> impl IntoView + use<> {
    match status {
        CertificateStatus::NotRequested => view! {
            <p data-testid="certificate" data-status="not-requested">
                "No certificate yet: it is requested automatically once the domain verifies."
            </p>
        }
        .into_any(),
        CertificateStatus::Issuing { expected_at } => view! {
            <p data-testid="certificate" data-status="issuing">
                {format!(
                    "The SSL certificate is being issued automatically, usually within a couple of minutes (expected in {}). Nothing to install or renew.",
                    minutes(expected_at.saturating_sub(now))
                )}
            </p>
        }
        .into_any(),
        CertificateStatus::BlockedByCaa { records } => view! {
            <div data-testid="certificate" data-status="caa-blocked" class="warning">
                <p>
                    {format!("A CAA record does not allow {authority} to issue the certificate. Add a CAA record 0 issue \"{authority}\" at your DNS provider (or delete the one below), then use Re-verify:")}
                </p>
                <ul>
                    {records.into_iter().map(|r| view! { <li><code>{r.to_string()}</code></li> }).collect_view()}
                </ul>
            </div>
        }
        .into_any(),
        CertificateStatus::Overdue { verified_at, blocking_caa, steps } => view! {
            <div data-testid="certificate" data-status="overdue" class="warning">
                <p>
                    {format!(
                        "The SSL certificate has not appeared {} after verification (30 minutes is the limit). Work through these steps:",
                        minutes(now.saturating_sub(verified_at))
                    )}
                </p>
                <ol data-testid="troubleshooting">
                    {steps.into_iter().map(|s| view! { <li>{s}</li> }).collect_view()}
                </ol>
                {(!blocking_caa.is_empty()).then(|| view! {
                    <p>
                        "CAA records blocking it now: "
                        {blocking_caa.iter().map(ToString::to_string).collect::<Vec<_>>().join(", ")}
                    </p>
                })}
            </div>
        }
        .into_any(),
        CertificateStatus::Issued { .. } => view! {
            <p data-testid="certificate" data-status="issued">
                "The SSL certificate is issued and renewed automatically."
            </p>
        }
        .into_any(),
    }
}
