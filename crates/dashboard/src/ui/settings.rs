//! Settings (collapsible): project, platform domain, CNAME target, plan, deploy, certificate
//! delay, the DNS-over-HTTPS resolver and where DNS answers come from. A change that would make
//! the dashboard inconsistent is refused with the reason.

use std::sync::atomic::{AtomicUsize, Ordering};

use leptos::prelude::*;
use petstore_core::domains::{Plan, Settings};

use crate::state::{Ctx, ResolverChoice};

/// A fresh suffix for the radio group's `name`, so two pages in one document stay apart.
fn group_name() -> String {
    static NEXT: AtomicUsize = AtomicUsize::new(0);
    format!("resolver-{}", NEXT.fetch_add(1, Ordering::Relaxed))
}

fn host(value: &str) -> String {
    value.trim().trim_end_matches('.').to_ascii_lowercase()
}

/// One text setting: label, hint, how to read it and how to apply what was typed.
#[derive(Clone, Copy)]
struct Field {
    label: &'static str,
    hint: &'static str,
    testid: &'static str,
    input_type: &'static str,
    get: fn(&Settings) -> String,
    set: fn(&mut Settings, &str) -> Result<(), String>,
}

const FIELDS: [Field; 5] = [
    Field {
        label: "Project name",
        hint: "The first label of the default address.",
        testid: "setting-project",
        input_type: "text",
        get: |s| s.project.clone(),
        set: |s, v| {
            s.project = v.trim().to_ascii_lowercase();
            Ok(())
        },
    },
    Field {
        label: "Platform domain",
        hint: "The hosting platform's domain.",
        testid: "setting-platform",
        input_type: "text",
        get: |s| s.platform_domain.clone(),
        set: |s, v| {
            s.platform_domain = host(v);
            Ok(())
        },
    },
    Field {
        label: "CNAME target",
        hint: "Where custom domains point their record.",
        testid: "setting-cname",
        input_type: "text",
        get: |s| s.cname_target.clone(),
        set: |s, v| {
            s.cname_target = host(v);
            Ok(())
        },
    },
    Field {
        label: "Certificate delay (seconds)",
        hint: "How long the simulated certificate takes after verification; 0 issues it at once.",
        testid: "setting-delay",
        input_type: "number",
        get: |s| s.certificate_delay_secs.to_string(),
        set: |s, v| {
            s.certificate_delay_secs = v
                .trim()
                .parse()
                .map_err(|_| format!("Not saved: the certificate delay \u{201c}{v}\u{201d} must be a whole number of seconds, 0 or more."))?;
            Ok(())
        },
    },
    Field {
        label: "DNS-over-HTTPS resolver URL",
        hint: "A resolver that serves the JSON API (application/dns-json).",
        testid: "setting-doh",
        input_type: "url",
        get: |s| s.doh_resolver.clone(),
        set: |s, v| {
            s.doh_resolver = v.trim().to_owned();
            Ok(())
        },
    },
];

/// The Settings section.
#[component]
pub fn SettingsForm() -> impl IntoView {
    let ctx = expect_context::<Ctx>();
    let error = RwSignal::new(None::<String>);
    let apply = move |set: &dyn Fn(&mut Settings) -> Result<(), String>| {
        let mut candidate = ctx.dash.get_untracked().settings;
        let result = set(&mut candidate).and_then(|()| ctx.update_settings(|s| *s = candidate));
        error.set(result.err());
    };
    let radio_group = group_name();
    let summary = move || {
        ctx.dash.with(|d| {
            let s = &d.settings;
            format!(
                "{} on the {} plan, {}; DNS from {}",
                s.project,
                s.plan,
                if s.deploy_succeeded { "deployed" } else { "not deployed yet" },
                match ctx.resolver.get() {
                    ResolverChoice::Simulated => "the simulated zone",
                    ResolverChoice::Doh => "DNS-over-HTTPS",
                }
            )
        })
    };

    let text_fields = FIELDS
        .iter()
        .map(|field| {
            let field = *field;
            view! {
                <label class="field">
                    <span class="field-label">{field.label}</span>
                    <input
                        type=field.input_type
                        min=(field.input_type == "number").then_some("0")
                        data-testid=field.testid
                        autocomplete="off"
                        spellcheck="false"
                        prop:value=move || ctx.dash.with(|d| (field.get)(&d.settings))
                        on:change=move |ev| {
                            let value = event_target_value(&ev);
                            apply(&|s| (field.set)(s, &value));
                        }
                    />
                    <span class="field-hint">{field.hint}</span>
                </label>
            }
        })
        .collect_view();

    view! {
        <details class="section settings" data-testid="settings">
            <summary class="settings-summary">
                <h2 class="settings-title">"Settings"</h2>
                <span class="muted" data-testid="settings-summary">{summary}</span>
            </summary>
            <div class="settings-grid">
                {text_fields}
                <label class="field">
                    <span class="field-label">"Plan"</span>
                    <select
                        data-testid="setting-plan"
                        prop:value=move || ctx.dash.with(|d| d.settings.plan.as_str().to_owned())
                        on:change=move |ev| {
                            let value = event_target_value(&ev);
                            apply(&|s| {
                                s.plan = Plan::ALL
                                    .into_iter()
                                    .find(|p| p.as_str() == value)
                                    .ok_or_else(|| format!("Not saved: there is no {value} plan."))?;
                                Ok(())
                            });
                        }
                    >
                        {Plan::ALL
                            .into_iter()
                            .map(|p| view! { <option value=p.as_str()>{p.as_str()}</option> })
                            .collect_view()}
                    </select>
                    <span class="field-hint">"Custom domains need Pro or above."</span>
                </label>
                <label class="field field-check">
                    <input
                        type="checkbox"
                        data-testid="setting-deployed"
                        prop:checked=move || ctx.dash.with(|d| d.settings.deploy_succeeded)
                        on:change=move |ev| {
                            let checked = event_target_checked(&ev);
                            apply(&|s| {
                                s.deploy_succeeded = checked;
                                Ok(())
                            });
                        }
                    />
                    <span class="field-label">"The last deploy succeeded"</span>
                </label>
                <fieldset class="field resolver-choice">
                    <legend class="field-label">"DNS answers come from"</legend>
                    <label class="field-check">
                        <input
                            type="radio"
                            name=radio_group.clone()
                            value="simulated"
                            data-testid="resolver-simulated"
                            prop:checked=move || ctx.resolver.get() == ResolverChoice::Simulated
                            on:change=move |_| ctx.set_resolver(ResolverChoice::Simulated)
                        />
                        "The simulated zone below (works offline)"
                    </label>
                    <label class="field-check">
                        <input
                            type="radio"
                            name=radio_group
                            value="doh"
                            data-testid="resolver-doh"
                            prop:checked=move || ctx.resolver.get() == ResolverChoice::Doh
                            on:change=move |_| ctx.set_resolver(ResolverChoice::Doh)
                        />
                        "DNS-over-HTTPS (real DNS, needs a connection)"
                    </label>
                </fieldset>
            </div>
            <p class="muted">
                "Default address: "
                <code data-testid="default-address">{move || ctx.dash.with(|d| d.default_address())}</code>
            </p>
            <p class="error" role="alert" data-testid="settings-error">{move || error.get()}</p>
        </details>
    }
}
