//! Settings (collapsible): project, platform domain, CNAME target, plan, deploy, certificate
//! delay, the DNS-over-HTTPS resolver and where DNS answers come from. A change that would make
//! the dashboard inconsistent is refused with the reason.

use leptos::prelude::*;
use playground_domains::{Plan, Settings};

use crate::state::ResolverChoice;

fn host(value: &str) -> String {
    value.trim().trim_end_matches('.').to_ascii_lowercase()
}

fn project_label(value: &str) -> String {
    value.trim().to_ascii_lowercase()
}

fn url(value: &str) -> String {
    value.trim().to_owned()
}

/// How typed text becomes a setting.
#[derive(Clone, Copy)]
enum Store {
    /// A text setting: where it is read, where it is written, and how typed text is cleaned.
    Text(fn(&Settings) -> &String, fn(&mut Settings) -> &mut String, fn(&str) -> String),
    /// The certificate delay, a whole number of seconds.
    DelaySecs,
}

/// One typed setting: label, hint, input and where the value goes.
#[derive(Clone, Copy)]
struct Field {
    label: &'static str,
    hint: &'static str,
    testid: &'static str,
    input_type: &'static str,
    store: Store,
}

impl Field {
    fn value(self, settings: &Settings) -> String {
        match self.store {
            Store::Text(read, _, _) => read(settings).clone(),
            Store::DelaySecs => settings.certificate_delay_secs.to_string(),
        }
    }

    fn apply(self, settings: &mut Settings, typed: &str) -> Result<(), String> {
        match self.store {
            Store::Text(_, write, clean) => *write(settings) = clean(typed),
            Store::DelaySecs => {
                settings.certificate_delay_secs = typed.trim().parse().map_err(|_| {
                    format!("Not saved: the certificate delay \u{201c}{typed}\u{201d} must be a whole number of seconds, 0 or more.")
                })?;
            }
        }
        Ok(())
    }
}

const FIELDS: [Field; 5] = [
    Field {
        label: "Project name",
        hint: "The first label of the default address.",
        testid: "setting-project",
        input_type: "text",
        store: Store::Text(|s| &s.project, |s| &mut s.project, project_label),
    },
    Field {
        label: "Platform domain",
        hint: "The hosting platform's domain.",
        testid: "setting-platform",
        input_type: "text",
        store: Store::Text(|s| &s.platform_domain, |s| &mut s.platform_domain, host),
    },
    Field {
        label: "CNAME target",
        hint: "Where custom domains point their record.",
        testid: "setting-cname",
        input_type: "text",
        store: Store::Text(|s| &s.cname_target, |s| &mut s.cname_target, host),
    },
    Field {
        label: "Certificate delay (seconds)",
        hint: "How long the simulated certificate takes after verification; 0 issues it at once.",
        testid: "setting-delay",
        input_type: "number",
        store: Store::DelaySecs,
    },
    Field {
        label: "DNS-over-HTTPS resolver URL",
        hint: "A resolver that serves the JSON API (application/dns-json).",
        testid: "setting-doh",
        input_type: "url",
        store: Store::Text(|s| &s.doh_resolver, |s| &mut s.doh_resolver, url),
    },
];

/// Applies a change to a copy of the settings and saves it, or shows why it was refused.
trait Apply: Fn(&dyn Fn(&mut Settings) -> Result<(), String>) + Copy + 'static {}

impl<F: Fn(&dyn Fn(&mut Settings) -> Result<(), String>) + Copy + 'static> Apply for F {}

/// The Settings section. Its controls sit in their own form, so the resolver radios of two
/// pages in one document stay apart without unique names.
#[component]
pub fn SettingsForm(
    /// The current settings.
    #[prop(into)]
    settings: Signal<Settings>,
    /// Where DNS answers come from.
    #[prop(into)]
    resolver: Signal<ResolverChoice>,
    /// Saves changed settings, or says why they are refused (nothing is changed then).
    #[prop(into)]
    on_change: Callback<Settings, Result<(), String>>,
    /// Chooses where DNS answers come from.
    #[prop(into)]
    on_resolver: Callback<ResolverChoice>,
) -> impl IntoView {
    let error = RwSignal::new(None::<String>);
    let apply = move |set: &dyn Fn(&mut Settings) -> Result<(), String>| {
        let mut candidate = settings.get_untracked();
        let result = set(&mut candidate).and_then(|()| on_change.run(candidate));
        error.set(result.err());
    };
    let summary = move || {
        settings.with(|s| {
            format!(
                "{} on the {} plan, {}; DNS from {}",
                s.project,
                s.plan,
                if s.deploy_succeeded { "deployed" } else { "not deployed yet" },
                match resolver.get() {
                    ResolverChoice::Simulated => "the simulated zone",
                    ResolverChoice::Doh => "DNS-over-HTTPS",
                }
            )
        })
    };

    view! {
        <details class="section settings" data-testid="settings">
            <summary class="settings-summary">
                <h2 class="settings-title">"Settings"</h2>
                <span class="muted" data-testid="settings-summary">{summary}</span>
            </summary>
            <form class="settings-grid" on:submit=|ev| ev.prevent_default()>
                {typed_fields(settings, apply)}
                {plan_field(settings, apply)}
                {deployed_field(settings, apply)}
                {resolver_field(resolver, on_resolver)}
            </form>
            <p class="muted">
                "Default address: "
                <code data-testid="default-address">{move || settings.with(Settings::default_address)}</code>
            </p>
            <p class="error" role="alert" data-testid="settings-error">{move || error.get()}</p>
        </details>
    }
}

/// The typed settings (`FIELDS`), each with its label and hint.
fn typed_fields(settings: Signal<Settings>, apply: impl Apply) -> impl IntoView {
    FIELDS
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
                        prop:value=move || settings.with(|s| field.value(s))
                        on:change=move |ev| {
                            let value = event_target_value(&ev);
                            apply(&|s| field.apply(s, &value));
                        }
                    />
                    <span class="field-hint">{field.hint}</span>
                </label>
            }
        })
        .collect_view()
}

/// The plan, chosen from a list.
fn plan_field(settings: Signal<Settings>, apply: impl Apply) -> impl IntoView {
    view! {
        <label class="field">
            <span class="field-label">"Plan"</span>
            <select
                data-testid="setting-plan"
                prop:value=move || settings.with(|s| s.plan.as_str().to_owned())
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
    }
}

/// Whether the last deploy succeeded, a checkbox.
fn deployed_field(settings: Signal<Settings>, apply: impl Apply) -> impl IntoView {
    view! {
        <label class="field field-check">
            <input
                type="checkbox"
                data-testid="setting-deployed"
                prop:checked=move || settings.with(|s| s.deploy_succeeded)
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
    }
}

/// Where DNS answers come from, two radios.
fn resolver_field(resolver: Signal<ResolverChoice>, on_resolver: Callback<ResolverChoice>) -> impl IntoView {
    view! {
        <fieldset class="field resolver-choice">
            <legend class="field-label">"DNS answers come from"</legend>
            {[
                (ResolverChoice::Simulated, "The simulated zone below (works offline)"),
                (ResolverChoice::Doh, "DNS-over-HTTPS (real DNS, needs a connection)"),
            ]
                .into_iter()
                .map(|(choice, label)| view! {
                    <label class="field-check">
                        <input
                            type="radio"
                            name="resolver"
                            value=choice.as_str()
                            data-testid=format!("resolver-{}", choice.as_str())
                            prop:checked=move || resolver.get() == choice
                            on:change=move |_| on_resolver.run(choice)
                        />
                        {label}
                    </label>
                })
                .collect_view()}
        </fieldset>
    }
}
