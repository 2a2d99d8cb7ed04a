//! One operation in full: method and path, badges, the deprecation warning with its sunset
//! date, the description, parameters, request body, responses and code samples.

use leptos::prelude::*;
use petstore_core::catalog::Stability;
use petstore_core::reference::{CallbackView, OperationView, ResponseView, SecurityUse};

use super::code_samples::CodeSamples;
use super::markdown::Markdown;
use super::schema_tree::SchemaTree;
use super::sections::external_link;
use super::try_it::{TryIt, TryItForm};

fn pretty(value: &serde_json::Value) -> String {
    serde_json::to_string_pretty(value).unwrap_or_default()
}

/// The reference of one operation. `mock_available` is false for documents other than the
/// embedded Petstore one: the try-it panel then offers only real base URLs and says why.
#[component]
pub fn OperationDetail(view: OperationView, #[prop(default = true)] mock_available: bool) -> impl IntoView {
    // A webhook is a request the API sends: there is nothing to try or to call.
    let form = (!view.hide_try_it && !view.webhook).then(|| TryItForm::new(&view, mock_available));
    let sample = form.map(|form| Signal::derive(move || form.sample()));
    let try_it =
        form.map(|form| view! { <TryIt view=view.clone() form=form mock_available=mock_available /> });
    let method = view.method.as_str();
    let anchor = view.anchor();
    let stability = view.stability.map(|s| match s {
        Stability::Experimental => view! { <span class="badge badge-experimental" data-testid="detail-stability">"Experimental"</span> },
        Stability::Beta => view! { <span class="badge badge-beta" data-testid="detail-stability">"Beta"</span> },
    });
    view! {
        <article class="operation-detail" data-testid="operation-detail" data-operation-id=anchor>
            <header class="detail-header">
                <span class=format!("method method-{}", method.to_ascii_lowercase())>{method}</span>
                <code class="path" class:deprecated=view.deprecated>{view.path.clone()}</code>
                {view.webhook.then(|| view! { <span class="badge badge-webhook" data-testid="detail-webhook">"Webhook"</span> })}
                {view.deprecated.then(|| view! { <span class="badge badge-deprecated" data-testid="detail-deprecated">"Deprecated"</span> })}
                {stability}
            </header>
            {view.webhook.then(|| view! {
                <p class="hint">"A request the API sends to an address you give it; your server answers with one of the responses below."</p>
            })}
            <h2 class="detail-summary" tabindex="-1">{view.summary.clone().unwrap_or_else(|| view.path.clone())}</h2>
            {(!view.problems.is_empty()).then(|| view! {
                <div class="warning" role="note" data-testid="view-problems">
                    <p>"Part of this operation could not be shown:"</p>
                    <ul>{view.problems.iter().map(|p| view! { <li>{p.clone()}</li> }).collect_view()}</ul>
                </div>
            })}
            {view
                .deprecation_warning()
                .map(|w| view! { <p class="warning" role="note" data-testid="deprecation-warning">{w}</p> })}
            {view.description.clone().map(|d| view! { <Markdown source=d /> })}
            {view.external_docs.clone().map(external_link)}
            <Security alternatives=view.security.clone() />
            {exchange(&view)}
            {(!view.callbacks.is_empty()).then(|| view! { <Callbacks callbacks=view.callbacks.clone() /> })}
            {try_it}
            {(!view.webhook).then(|| view! { <CodeSamples view=view.clone() request=sample /> })}
        </article>
    }
}

/// Parameters, request body and responses.
fn exchange(view: &OperationView) -> impl IntoView + use<> {
    let parameters = (!view.parameters.is_empty()).then(|| {
        view! {
            <section class="parameters" data-testid="parameters">
                <h3>"Parameters"</h3>
                <ul class="param-list">
                    {view
                        .parameters
                        .iter()
                        .map(|p| {
                            view! {
                                <li class="param" data-testid="parameter" data-name=p.name.clone()>
                                    <code class="prop-name">{p.name.clone()}</code>
                                    " "
                                    <span class="param-in">{format!("in {}", p.location)}</span>
                                    {p.required.then(|| view! { " " <span class="required">"required"</span> })}
                                    {p.deprecated.then(|| view! { " " <span class="badge badge-deprecated">"Deprecated"</span> })}
                                    " "
                                    <SchemaTree node=p.schema.clone() />
                                    {p.description.clone().map(|d| view! { <Markdown source=d /> })}
                                </li>
                            }
                        })
                        .collect_view()}
                </ul>
            </section>
        }
    });
    let body = view.request_body.clone().map(|b| {
        view! {
            <section class="request-body" data-testid="request-body">
                <h3>
                    "Request body "
                    <span class="media-type">{b.media_type.clone()}</span>
                    {b.required.then(|| view! { <span class="required">"required"</span> })}
                </h3>
                {b.description.clone().map(|d| view! { <Markdown source=d /> })}
                <SchemaTree node=b.schema.clone() />
                <h4>"Example"</h4>
                <pre class="example"><code>{pretty(&b.example)}</code></pre>
                {(!b.example_notes.is_empty()).then(|| view! {
                    <p class="hint" data-testid="example-notes">{format!("Generated example: {}.", b.example_notes.join("; "))}</p>
                })}
            </section>
        }
    });
    let responses = view.responses.iter().cloned().map(|r| view! { <Response response=r /> }).collect_view();
    view! {
        {parameters}
        {body}
        <section class="responses" data-testid="responses">
            <h3>"Responses"</h3>
            {responses}
        </section>
    }
}

/// The requests the API sends back (`callbacks`): each expression's operations, folded.
#[component]
fn Callbacks(callbacks: Vec<CallbackView>) -> impl IntoView {
    view! {
        <section class="callbacks" data-testid="callbacks">
            <h3>"Callbacks"</h3>
            <p class="hint">"Requests the API sends to the address given, once this operation is called."</p>
            {callbacks.into_iter().map(|callback| {
                callback.operations.into_iter().map(|op| {
                    let method = op.method.as_str();
                    view! {
                        <details class="callback" data-testid="callback" data-name=callback.name.clone()>
                            <summary>
                                <strong>{callback.name.clone()}</strong>
                                " "
                                <span class=format!("method method-{}", method.to_ascii_lowercase())>{method}</span>
                                " "
                                <code class="path">{callback.expression.clone()}</code>
                            </summary>
                            {op.summary.clone().map(|s| view! { <p>{s}</p> })}
                            {op.description.clone().map(|d| view! { <Markdown source=d /> })}
                            {exchange(&op)}
                        </details>
                    }
                }).collect_view()
            }).collect_view()}
        </section>
    }
}

#[component]
fn Response(response: ResponseView) -> impl IntoView {
    let class = match response.status.chars().next() {
        Some('2') => "status status-ok",
        Some('4' | '5') => "status status-error",
        _ => "status",
    };
    view! {
        <details class="response" data-testid="response" data-status=response.status.clone()>
            <summary>
                <span class=class>{response.status.clone()}</span>
                " "
                <span class="response-description">{response.description.clone()}</span>
            </summary>
            {(!response.headers.is_empty()).then(|| view! {
                <h4>"Headers"</h4>
                <ul class="param-list">
                    {response.headers.iter().map(|(name, description, schema)| view! {
                        <li class="param">
                            <code class="prop-name">{name.clone()}</code>
                            <SchemaTree node=schema.clone() />
                            {description.clone().map(|d| view! { <Markdown source=d /> })}
                        </li>
                    }).collect_view()}
                </ul>
            })}
            {response.schema.clone().map(|s| view! {
                <h4>"Body " <span class="media-type">{response.media_type.clone()}</span></h4>
                <SchemaTree node=s />
            })}
            {response.examples.iter().map(|(label, value)| view! {
                <h4>{label.clone()}</h4>
                <pre class="example" data-testid="response-example"><code>{pretty(value)}</code></pre>
            }).collect_view()}
        </details>
    }
}

/// What credentials an operation needs: each way in, its schemes used together.
#[component]
fn Security(alternatives: Vec<Vec<SecurityUse>>) -> impl IntoView {
    let open = alternatives.iter().any(Vec::is_empty);
    let ways: Vec<Vec<SecurityUse>> = alternatives.into_iter().filter(|a| !a.is_empty()).collect();
    (!ways.is_empty()).then(|| {
        let lead = if ways.len() == 1 { "Needs" } else { "Needs one of" };
        let items = ways
            .into_iter()
            .map(|together| {
                let parts = together
                    .into_iter()
                    .enumerate()
                    .map(|(i, scheme)| {
                        let scopes = (!scheme.scopes.is_empty()).then(|| format!(", scopes {}", scheme.scopes.join(", ")));
                        view! {
                            {(i > 0).then_some(" and ")}
                            <span class="security-scheme"><code>{scheme.name}</code>" ("{scheme.kind}{scopes}")"</span>
                        }
                    })
                    .collect_view();
                view! { <li data-testid="security-way">{parts}</li> }
            })
            .collect_view();
        view! {
            <section class="security" data-testid="security">
                <h3>"Authorization"</h3>
                <p>{lead}":"</p>
                <ul class="security-list">{items}</ul>
                {open.then(|| view! { <p class="hint">"It can also be called without credentials."</p> })}
            </section>
        }
    })
}
