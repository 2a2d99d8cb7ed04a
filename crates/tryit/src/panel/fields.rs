//! The try-it form's fields: where to send, the base URL, one field per parameter, the body and
//! the extra headers. Every control sits in one [`Field`], which ties it to its label and to
//! the error shown under it.

use leptos::attr::any_attribute::AnyAttribute;
use leptos::prelude::*;
use playground_reference::{BodyView, ParameterView};
use playground_tryit_core::field_key;
use playground_tryit_core::request::example_text;

#[cfg(feature = "extras")]
use playground_http::form::SpecKind;
#[cfg(feature = "extras")]
use wasm_bindgen::JsCast;

use super::form::{BodyKind, TryItForm};
use super::target::{BASE_URL_KEY, HEADERS_KEY, TARGET_KEY, Target, check_base_url, remember};

/// The element ids of one panel's controls (several panels may be on a page).
#[derive(Debug, Clone, Copy)]
pub struct Ids(StoredValue<String>);

impl Ids {
    /// The ids of the panel of the operation at `anchor`.
    #[must_use]
    pub fn new(anchor: &str) -> Self {
        Self(StoredValue::new(anchor.replace(|c: char| !c.is_ascii_alphanumeric(), "-")))
    }

    /// The id of this panel's `suffix`.
    #[must_use]
    pub fn of(&self, suffix: &str) -> String {
        self.0.with_value(|slug| format!("try-{slug}-{suffix}"))
    }

    /// The id of the control of `field` (a [`playground_tryit_core::FieldError::field`]).
    #[must_use]
    pub fn field(&self, field: &str) -> String {
        match field {
            "base" | "body" | "headers" => self.of(field),
            // A form body's fields come first where the body's control is.
            key if key.starts_with("form:") => self.of("body"),
            key => self.of(&format!("param-{}", key.replace(':', "-"))),
        }
    }
}

/// A label, a control and the error under it. `control` gets the attributes that name the
/// control and point it at the error; the error shows once the reader has tried to send.
#[component]
pub fn Field<L, C, CV>(
    /// The control's id.
    id: String,
    /// The label (or the label row), given the control's id.
    label: L,
    /// The problem to show.
    error: Signal<Option<String>>,
    /// The control.
    control: C,
    /// The error line's `data-testid`, when a test reads it.
    #[prop(optional)]
    error_testid: Option<&'static str>,
) -> impl IntoView
where
    L: IntoView + 'static,
    C: FnOnce(AnyAttribute) -> CV + 'static,
    CV: IntoView + 'static,
{
    let error_id = format!("{id}-error");
    let tie = view! {
        <{..}
            id=id
            aria-invalid=move || error.get().is_some().to_string()
            aria-describedby=error_id.clone()
        />
    };
    view! {
        <div class="field">
            {label}
            {control(tie.into_any_attr())}
            <p class="field-error" id=error_id data-testid=error_testid>{move || error.get()}</p>
        </div>
    }
}

/// The choice of where to send; remembered in this browser.
#[component]
pub fn TargetSelect(form: TryItForm, ids: Ids, mock_available: bool) -> impl IntoView {
    let select_id = ids.of("target");
    let options = form
        .view
        .with_value(|v| v.servers.clone())
        .into_iter()
        .map(|url| {
            let key = Target::Server(url.clone()).key();
            // A template shows as the reader's values make it.
            let shown = url.clone();
            view! { <option value=key.clone() selected=move || form.target.get().key() == key>{move || form.expanded(&shown)}</option> }
        })
        .collect_view();
    // The chosen server's `{variables}`: a list for an enum, else a text field.
    let variables = move || {
        let Target::Server(template) = form.target.get() else { return None };
        let server =
            form.view.with_value(|v| v.server_details.iter().find(|s| s.url == template).cloned())?;
        (!server.variables.is_empty()).then(|| {
            server
                .variables
                .into_iter()
                .map(|variable| {
                    let id = ids.of(&format!("server-{}", variable.name));
                    let (template, name) = (template.clone(), variable.name.clone());
                    let current = {
                        let (template, name, default) = (template.clone(), name.clone(), variable.default.clone());
                        move || {
                            form.vault
                                .server_values
                                .with(|all| all.get(&template).and_then(|v| v.get(&name)).cloned())
                                .unwrap_or_else(|| default.clone())
                        }
                    };
                    let set = move |ev: leptos::ev::Event| {
                        form.vault.set_server_value(&template, &name, event_target_value(&ev));
                    };
                    let control = if variable.choices.is_empty() {
                        view! {
                            <input id=id.clone() type="text" spellcheck="false" data-testid="try-server-variable"
                                data-name=variable.name.clone() prop:value=current on:input=set />
                        }
                        .into_any()
                    } else {
                        let chosen = current();
                        view! {
                            <select id=id.clone() data-testid="try-server-variable" data-name=variable.name.clone() on:change=set>
                                {variable.choices.iter().map(|c| view! {
                                    <option value=c.clone() selected=*c == chosen>{c.clone()}</option>
                                }).collect_view()}
                            </select>
                        }
                        .into_any()
                    };
                    view! {
                        <div class="field server-variable">
                            <label for=id>{format!("{{{}}}", variable.name)}</label>
                            {control}
                            {variable.description.map(|d| view! { <p class="hint">{d}</p> })}
                        </div>
                    }
                })
                .collect_view()
        })
    };
    view! {
        <div class="field">
            <label for=select_id.clone()>"Send to"</label>
            <select
                id=select_id
                data-testid="try-target"
                on:change=move |ev| {
                    let key = event_target_value(&ev);
                    if let Some(target) = Target::from_key(&key) {
                        remember(TARGET_KEY, Some(&key));
                        form.target.set(target);
                    }
                }
            >
                {mock_available.then(|| view! {
                    <option value="mock" selected=move || form.target.get() == Target::Mock>"In-browser mock"</option>
                })}
                {options}
                <option value="custom" selected=move || form.target.get() == Target::Custom>"Another base URL…"</option>
            </select>
        </div>
        {variables}
    }
}

/// The reader's base URL, shown for "Another base URL…"; remembered once it is valid.
#[component]
pub fn BaseUrlField(form: TryItForm, ids: Ids) -> impl IntoView {
    let id = ids.of("base");
    view! {
        <Show when=move || form.target.get() == Target::Custom>
            <Field
                id=id.clone()
                label=view! { <label for=id.clone()>"Base URL"</label> }
                error=form.error("base")
                error_testid="try-base-url-error"
                control=move |tie: AnyAttribute| view! {
                    <input
                        {..tie}
                        type="url"
                        inputmode="url"
                        spellcheck="false"
                        placeholder="http://127.0.0.1:4010"
                        data-testid="try-base-url"
                        prop:value=move || form.custom_base.get()
                        on:input=move |ev| {
                            let text = event_target_value(&ev);
                            if let Ok(url) = check_base_url(&text) {
                                remember(BASE_URL_KEY, Some(&url));
                            }
                            form.custom_base.set(text);
                        }
                    />
                }
            />
        </Show>
    }
}

/// The values a parameter can take from a list: its `enum`, or true and false.
fn choices(param: &ParameterView) -> Vec<String> {
    let schema = &param.schema_json;
    schema
        .get("enum")
        .and_then(|e| e.as_array())
        .map(|values| {
            values
                .iter()
                .filter_map(|v| {
                    v.as_str().map(str::to_owned).or_else(|| (!v.is_null()).then(|| v.to_string()))
                })
                .collect()
        })
        .or_else(|| {
            (schema.get("type").and_then(|t| t.as_str()) == Some("boolean"))
                .then(|| vec!["true".to_owned(), "false".to_owned()])
        })
        .unwrap_or_default()
}

/// One parameter: a text box, or a list when its values are listed.
#[component]
pub fn ParamField(form: TryItForm, ids: Ids, param: ParameterView) -> impl IntoView {
    let key = field_key(&param.location, &param.name);
    let id = ids.field(&key);
    let (location, name) = (param.location.clone(), param.name.clone());
    let value = Signal::derive({
        let (location, name) = (location.clone(), name.clone());
        move || form.params.with(|ps| ps.iter().find(|i| i.is_for(&location, &name)).map(|i| i.text.clone()))
    });
    let set = move |text: String| {
        form.params.update(|ps| {
            if let Some(i) = ps.iter_mut().find(|i| i.is_for(&location, &name)) {
                i.text = text;
            }
        });
    };
    let label = view! {
        <label for=id.clone()>
            <code>{param.name.clone()}</code>
            <span class="param-in">{format!(" in {}", param.location)}</span>
            {param.required.then(|| view! { <span class="required">" required"</span> })}
        </label>
    };
    let enumeration = choices(&param);
    let numeric =
        matches!(param.schema_json.get("type").and_then(|t| t.as_str()), Some("integer" | "number"));
    let (required, name) = (param.required, param.name.clone());
    let placeholder = example_text(&param);
    let control = move |tie: AnyAttribute| {
        if enumeration.is_empty() {
            view! {
                <input
                    {..tie}
                    type="text"
                    inputmode=if numeric { "numeric" } else { "text" }
                    spellcheck="false"
                    placeholder=placeholder
                    data-testid="try-param"
                    data-name=name
                    aria-required=required.to_string()
                    prop:value=move || value.get().unwrap_or_default()
                    on:input=move |ev| set(event_target_value(&ev))
                />
            }
            .into_any()
        } else {
            let options = enumeration
                .into_iter()
                .map(|option| {
                    let label = option.clone();
                    let chosen = option.clone();
                    view! {
                        <option value=option selected=move || value.get().as_deref() == Some(chosen.as_str())>
                            {label}
                        </option>
                    }
                })
                .collect_view();
            view! {
                <select
                    {..tie}
                    data-testid="try-param"
                    data-name=name
                    aria-required=required.to_string()
                    on:change=move |ev| set(event_target_value(&ev))
                >
                    <option value="" selected=move || value.get().unwrap_or_default().is_empty()>
                        {if required { "Choose…" } else { "(not sent)" }}
                    </option>
                    {options}
                </select>
            }
            .into_any()
        }
    };
    view! { <Field id=id label=label error=form.error(&key) control=control /> }
}

/// The JSON body, with a button that puts the example back.
#[component]
pub fn BodyField(form: TryItForm, ids: Ids, body: BodyView) -> impl IntoView {
    let id = ids.of("body");
    let example = serde_json::to_string_pretty(&body.example).unwrap_or_default();
    // The media types the body may be sent as: a choice when there are several.
    let choices = (body.media_types.len() > 1).then(|| {
        let options = body
            .media_types
            .iter()
            .map(|m| {
                let value = m.media_type.clone();
                view! { <option value=value.clone() selected=move || form.media.get() == value>{m.media_type.clone()}</option> }
            })
            .collect_view();
        view! {
            <select class="media-choice" aria-label="Media type of the body" data-testid="try-body-type"
                on:change=move |ev| form.media.set(event_target_value(&ev))>
                {options}
            </select>
        }
    });
    let single =
        choices.is_none().then(|| view! { <span class="media-type">{body.media_type.clone()}</span> });
    let kind = Memo::new(move |_| form.body_kind());
    let label_id = id.clone();
    let label = view! {
        <div class="field-head">
            <label for=label_id>"Body " {single}</label>
            {choices}
            <Show when=move || matches!(kind.get(), BodyKind::Json | BodyKind::Text)>
                <button type="button" class="button button-quiet" data-testid="try-body-reset" on:click={
                    let example = example.clone();
                    move |_| form.body.set(example.clone())
                }>
                    "Example"
                </button>
            </Show>
        </div>
    };
    let control_id = id.clone();
    let control = move |tie: AnyAttribute| {
        #[cfg_attr(not(feature = "extras"), allow(unused_variables))]
        let control_id = control_id.clone();
        move || {
            match kind.get() {
            #[cfg(feature = "extras")]
            BodyKind::File => view! {
                <input {..tie.clone()} type="file" data-testid="try-body-file" on:change=move |ev| pick(form, "", &ev) />
            }
            .into_any(),
            #[cfg(feature = "extras")]
            BodyKind::Form(_) => view! { <FormFields form=form ids=ids first_id=control_id.clone() /> }.into_any(),
            // JSON and text (the module without `extras` is used only for JSON bodies).
            _ => view! {
                <textarea
                    {..tie.clone()}
                    class="code-input"
                    rows="8"
                    spellcheck="false"
                    data-testid="try-body"
                    prop:value=move || form.body.get()
                    on:input=move |ev| form.body.set(event_target_value(&ev))
                />
            }
            .into_any(),
        }
        }
    };
    view! {
        <Field id=id label=label error=form.error("body") error_testid="try-body-error" control=control />
    }
}

#[cfg(feature = "extras")]
/// Keeps the files chosen in a file input under `name` (`""` for a body that is a file).
fn pick(form: TryItForm, name: &str, ev: &leptos::ev::Event) {
    let input: Option<web_sys::HtmlInputElement> = ev.target().and_then(|t| t.dyn_into().ok());
    let files: Vec<web_sys::File> = input
        .and_then(|i| i.files())
        .map(|list| (0..list.length()).filter_map(|i| list.item(i)).collect())
        .unwrap_or_default();
    let name = name.to_owned();
    form.files.update(|all| {
        all.insert(name, files);
    });
}

/// A form body: a field per property of the media type's schema (a file input for binary
/// ones, several files for arrays of them).
#[cfg(feature = "extras")]
#[component]
fn FormFields(form: TryItForm, ids: Ids, first_id: String) -> impl IntoView {
    let fields = form.form_fields();
    if fields.is_empty() {
        return view! { <p class="hint" id=first_id>"The schema lists no fields: the body is sent empty."</p> }.into_any();
    }
    fields
        .into_iter()
        .enumerate()
        .map(|(i, spec)| {
            let id = if i == 0 { first_id.clone() } else { ids.of(&format!("form-{}", spec.name)) };
            let name = spec.name.clone();
            let label = if spec.required { format!("{name} *") } else { name.clone() };
            let error = form.error(&format!("form:{name}"));
            let control = match spec.kind {
                SpecKind::Text => {
                    let (read, write) = (spec.clone(), name.clone());
                    view! {
                        <input id=id.clone() type="text" spellcheck="false" data-testid="try-form-field" data-name=name.clone()
                            prop:value=move || form.field_text(&read)
                            on:input=move |ev| {
                                let text = event_target_value(&ev);
                                form.form_text.update(|t| { t.insert(write.clone(), text); });
                            } />
                    }
                    .into_any()
                }
                SpecKind::File | SpecKind::Files => {
                    let multiple = spec.kind == SpecKind::Files;
                    let chosen = name.clone();
                    view! {
                        <input id=id.clone() type="file" multiple=multiple data-testid="try-form-file" data-name=name.clone()
                            on:change=move |ev| pick(form, &chosen, &ev) />
                    }
                    .into_any()
                }
            };
            view! {
                <div class="field form-field">
                    <label for=id>{label}</label>
                    {control}
                    {spec.description.clone().map(|d| view! { <p class="hint">{d}</p> })}
                    <p class="field-error" data-testid="try-form-error">{move || error.get()}</p>
                </div>
            }
            .into_any()
        })
        .collect_view()
        .into_any()
}

/// Extra header lines, kept in this browser only when the reader asks.
#[component]
pub fn HeadersField(form: TryItForm, ids: Ids) -> impl IntoView {
    let (id, remember_id) = (ids.of("headers"), ids.of("remember-headers"));
    let save = move || {
        let text = form.headers.get_untracked();
        remember(
            HEADERS_KEY,
            (form.remember_headers.get_untracked() && !text.trim().is_empty()).then_some(text.as_str()),
        );
    };
    let has_headers = !form.headers.get_untracked().trim().is_empty();
    view! {
        <details class="field extra-headers" open=has_headers>
            <summary>"Extra headers"</summary>
            <Field
                id=id.clone()
                label=view! { <label for=id.clone()>"One per line, as Name: value"</label> }
                error=form.error("headers")
                control=move |tie: AnyAttribute| view! {
                    <textarea
                        {..tie}
                        class="code-input"
                        rows="2"
                        spellcheck="false"
                        placeholder="Authorization: Bearer …"
                        data-testid="try-headers"
                        prop:value=move || form.headers.get()
                        on:input=move |ev| {
                            form.headers.set(event_target_value(&ev));
                            save();
                        }
                    />
                }
            />
            <label class="check" for=remember_id.clone()>
                <input
                    id=remember_id.clone()
                    type="checkbox"
                    data-testid="try-remember-headers"
                    prop:checked=move || form.remember_headers.get()
                    on:change=move |ev| {
                        form.remember_headers.set(event_target_checked(&ev));
                        save();
                    }
                />
                " Remember these headers in this browser"
            </label>
        </details>
    }
}
