//! The page's state on a host: who is signed in, the owner's projects, the chosen project as
//! the host last reported it, the requests in flight and the last outcome of each domain's
//! actions. Every change goes to the host; its answer (the project after the change) replaces
//! what the page shows, so the host's state is the only one.

use std::collections::{HashMap, HashSet};

use leptos::prelude::*;
use playground_domains::hosted::{
    Changed, HostedCertificate, Me, ProjectSummary, ProjectView, Route, SESSION_NOT_KEPT, SignedIn,
};
use playground_domains::{CertificateStatus, DomainRole, DomainState, Event, Outcome};
use serde_json::json;

use crate::browser;
use crate::host_fetch::{Failure, Method, call};
use crate::ui::add_domain::AddRequest;
use crate::view::DomainView;

/// Where the owner is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Session {
    /// Asking the host who is signed in.
    Checking,
    /// Not signed in; why, if there is something to say (signed out, session expired).
    SignedOut(Option<String>),
    /// Signed in as this email.
    SignedIn(String),
}

/// An answer to a read of the project named, as the host gave it.
type ProjectAnswer = Option<(String, Result<ProjectView, Failure>)>;

/// The chosen project read from the host, a Leptos `LocalResource`: read again when the choice
/// changes and when refetched (the poll, Try again). A newer read wins over an older one still
/// on its way, and so does an answer to a change (`HostCtx::change` bumps its version).
#[derive(Clone, Copy)]
pub struct ProjectRead(LocalResource<ProjectAnswer>);

impl std::fmt::Debug for ProjectRead {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("ProjectRead")
    }
}

/// The page's state on a host (every field is a cheap handle).
#[derive(Debug, Clone, Copy)]
pub struct HostCtx {
    /// The API's base path on this host.
    pub api: StoredValue<String>,
    /// Who is signed in.
    pub session: RwSignal<Session>,
    /// The owner's projects.
    pub projects: RwSignal<Vec<ProjectSummary>>,
    /// The chosen project's name.
    pub selected: RwSignal<Option<String>>,
    /// The chosen project as the host last reported it.
    pub project: RwSignal<Option<ProjectView>>,
    /// Why the project could not be read, if it could not.
    pub load_error: RwSignal<Option<String>>,
    /// Domains with a request in flight ("" for Add domain).
    pub busy: RwSignal<HashSet<String>>,
    /// The last outcome of each domain's actions.
    pub outcomes: RwSignal<HashMap<String, Outcome>>,
    /// Page-wide notices.
    pub notices: RwSignal<Vec<String>>,
    /// What happened to a domain that is no longer listed (its removal).
    pub announcement: RwSignal<String>,
    /// The time (seconds) as of the last answer.
    pub now: RwSignal<u64>,
    /// Whether a refresh of the project is on its way (polls wait for it).
    pub refreshing: RwSignal<bool>,
    /// The chosen project's reads.
    read: ProjectRead,
}

impl HostCtx {
    /// The state for the API at `api`, before the host is asked anything; the chosen project
    /// is read whenever the choice changes.
    #[must_use]
    pub fn new(api: &str) -> HostCtx {
        let api = StoredValue::new(api.to_owned());
        let selected = RwSignal::new(None::<String>);
        let refreshing = RwSignal::new(false);
        let read = LocalResource::new(move || {
            let name = selected.get();
            let path = name.as_deref().map(|name| Route::Domains(name).path(&api.read_value()));
            async move {
                let (name, path) = (name?, path?);
                refreshing.set(true);
                let result = call::<ProjectView>(Method::Get, &path, None).await;
                refreshing.set(false);
                Some((name, result))
            }
        });
        let ctx = HostCtx {
            api,
            session: RwSignal::new(Session::Checking),
            projects: RwSignal::new(Vec::new()),
            selected,
            project: RwSignal::new(None),
            load_error: RwSignal::new(None),
            busy: RwSignal::new(HashSet::new()),
            outcomes: RwSignal::new(HashMap::new()),
            notices: RwSignal::new(Vec::new()),
            announcement: RwSignal::new(String::new()),
            now: RwSignal::new(browser::now_secs()),
            refreshing,
            read: ProjectRead(read),
        };
        Effect::new(move |_| {
            if let Some(Some((name, result))) = read.get() {
                untrack(|| ctx.show_read(&name, result));
            }
        });
        ctx
    }

    fn path(&self, route: Route<'_>) -> String {
        route.path(&self.api.read_value())
    }

    /// Adds a page-wide notice unless it is already shown.
    pub fn notice(&self, message: String) {
        if !self.notices.with_untracked(|n| n.contains(&message)) {
            self.notices.update(|n| n.push(message));
        }
    }

    /// Back to the sign-in form with `message`, everything of the owner forgotten.
    fn signed_out(&self, message: Option<String>) {
        self.projects.set(Vec::new());
        self.selected.set(None);
        self.project.set(None);
        self.load_error.set(None);
        self.outcomes.set(HashMap::new());
        self.notices.set(Vec::new());
        self.announcement.set(String::new());
        self.busy.set(HashSet::new());
        self.session.set(Session::SignedOut(message));
    }

    /// A failure that needs a new sign-in goes back to the form; any other is returned.
    fn sign_in_again(&self, failure: Failure) -> Option<String> {
        if failure.sign_in {
            self.signed_out(Some(failure.message));
            None
        } else {
            Some(failure.message)
        }
    }

    /// Asks who is signed in, then loads the projects (at start).
    pub async fn start(&self) {
        match call::<Me>(Method::Get, &self.path(Route::Me), None).await {
            Ok(me) => {
                self.session.set(Session::SignedIn(me.email));
                self.load_projects().await;
            }
            // Not signed in is the usual start; an expired session is worth saying.
            Err(failure) if failure.sign_in => {
                let expired = failure.code.as_deref() == Some("session_expired");
                self.session.set(Session::SignedOut(expired.then_some(failure.message)));
            }
            Err(failure) => self.session.set(Session::SignedOut(Some(failure.message))),
        }
    }

    /// Signs in.
    ///
    /// # Errors
    /// The host's refusal in words (wrong password, too many attempts and when to retry).
    pub async fn sign_in(&self, email: &str, password: &str) -> Result<(), String> {
        let body = json!({"email": email, "password": password});
        let signed: SignedIn =
            call(Method::Post, &self.path(Route::Session), Some(&body)).await.map_err(|f| f.message)?;
        // Whether the browser kept the cookie (it keeps a Secure one only over HTTPS).
        if let Err(failure) = call::<Me>(Method::Get, &self.path(Route::Me), None).await {
            return Err(if failure.sign_in { SESSION_NOT_KEPT.to_owned() } else { failure.message });
        }
        self.session.set(Session::SignedIn(signed.email));
        self.load_projects().await;
        Ok(())
    }

    /// Signs out (the page forgets the owner's data even if the host cannot be reached).
    pub async fn sign_out(&self) {
        let result = call::<serde_json::Value>(Method::Delete, &self.path(Route::Session), None).await;
        let message = match result {
            Ok(_) => "You are signed out.".to_owned(),
            Err(f) if f.sign_in => "You are signed out.".to_owned(),
            Err(f) => format!("The host may still hold the session: {}", f.message),
        };
        self.signed_out(Some(message));
    }

    /// Reads the owner's projects and shows the chosen one (the first if none is chosen).
    pub async fn load_projects(&self) {
        match call::<Vec<ProjectSummary>>(Method::Get, &self.path(Route::Projects), None).await {
            Ok(list) => {
                let keep = self.selected.get_untracked().filter(|s| list.iter().any(|p| &p.name == s));
                let chosen = keep.or_else(|| list.first().map(|p| p.name.clone()));
                self.projects.set(list);
                if chosen.is_none() {
                    self.project.set(None);
                }
                // The chosen project is read (again) as the choice is set.
                self.selected.set(chosen);
            }
            Err(failure) => {
                if let Some(message) = self.sign_in_again(failure) {
                    self.load_error.set(Some(message));
                }
            }
        }
    }

    /// Shows the project `name` (the selector's choice), read as the choice is set.
    pub fn choose(&self, name: &str) {
        self.project.set(None);
        self.outcomes.set(HashMap::new());
        self.announcement.set(String::new());
        self.selected.set(Some(name.to_owned()));
    }

    /// Shows the project `name` as the host had it when read.
    fn show_read(&self, name: &str, result: Result<ProjectView, Failure>) {
        // The owner may have chosen another project meanwhile.
        if self.selected.get_untracked().as_deref() != Some(name) {
            return;
        }
        match result {
            Ok(view) => {
                self.now.set(browser::now_secs());
                self.load_error.set(None);
                self.note_issued(&view);
                self.project.set(Some(view));
            }
            Err(failure) => {
                if let Some(message) = self.sign_in_again(failure) {
                    self.load_error.set(Some(message));
                }
            }
        }
    }

    /// Says so on the cards of domains whose certificate was issued since the last answer.
    fn note_issued(&self, view: &ProjectView) {
        let issued: Vec<String> = self.project.with_untracked(|before| {
            let Some(before) = before.as_ref().filter(|b| b.project == view.project) else {
                return Vec::new();
            };
            view.domains
                .iter()
                .filter(|d| matches!(d.certificate, HostedCertificate::Issued { .. }))
                .filter(|d| {
                    before
                        .domain(&d.name)
                        .is_some_and(|b| !matches!(b.certificate, HostedCertificate::Issued { .. }))
                })
                .map(|d| d.name.clone())
                .collect()
        });
        for name in issued {
            self.set_outcome(&name, Outcome::done(&Event::CertificateIssued { name: name.clone() }));
        }
    }

    /// Reads the chosen project again (the poll while a certificate is pending).
    pub fn refresh(&self) {
        if self.selected.with_untracked(Option::is_some) {
            self.read.0.refetch();
        }
    }

    /// Whether a request about `name` is in flight.
    #[must_use]
    pub fn is_busy(&self, name: &str) -> bool {
        self.busy.with(|b| b.contains(name))
    }

    fn set_busy(&self, name: &str, on: bool) {
        self.busy.update(|b| {
            if on {
                b.insert(name.to_owned());
            } else {
                b.remove(name);
            }
        });
    }

    fn set_outcome(&self, name: &str, outcome: Outcome) {
        self.outcomes.update(|o| {
            o.insert(name.to_owned(), outcome);
        });
    }

    /// Sends a change about `name` (`name` busy meanwhile) and shows the project after it.
    async fn change(
        &self,
        name: &str,
        method: Method,
        path: String,
        body: Option<serde_json::Value>,
    ) -> Result<String, String> {
        let project = self.selected.get_untracked();
        self.set_busy(name, true);
        let result = call::<Changed>(method, &path, body.as_ref()).await;
        self.set_busy(name, false);
        match result {
            Ok(changed) => {
                if self.selected.get_untracked() == project {
                    // A read still on its way holds the project from before the change: it is
                    // not shown (its version is older).
                    drop(self.read.0.write_untracked());
                    self.now.set(browser::now_secs());
                    self.project.set(Some(changed.project));
                }
                Ok(changed.message)
            }
            Err(failure) => {
                let refused = self.sign_in_again(failure.clone());
                // A refusal may follow a change made elsewhere (another tab): show the host's
                // state as it is now.
                if refused.is_some() && failure.status.is_some() {
                    self.refresh();
                }
                Err(refused.unwrap_or(failure.message))
            }
        }
    }

    fn chosen(&self) -> Option<String> {
        self.selected.get_untracked()
    }

    /// Add domain: the instant name check, then the host's answer.
    pub async fn add(&self, request: AddRequest) {
        let Some(project) = self.chosen() else { return };
        let typed = request.name();
        let to_ascii = |name: &str| browser::to_ascii(name);
        let checked =
            self.project.with_untracked(|p| p.as_ref().map(|p| p.check_new_name(&typed, &to_ascii)));
        if let Some(Err(message)) = checked {
            request.finish(Err(message));
            return;
        }
        let path = self.path(Route::Domains(&project));
        let result = self.change("", Method::Post, path, Some(json!({"name": typed.trim()}))).await;
        if let Ok(name) = checked.unwrap_or(Err(String::new())) {
            self.outcomes.update(|o| {
                o.remove(&name);
            });
        }
        if result.is_ok() {
            self.announcement.set(String::new());
        }
        request.finish(result);
    }

    /// Verify (`again` false) or Re-verify (`again` true) `name`: the host asks DNS.
    pub async fn check(&self, name: &str, again: bool) {
        let Some(project) = self.chosen() else { return };
        let route = if again { Route::Reverify(&project, name) } else { Route::Verify(&project, name) };
        let path = self.path(route);
        let outcome = match self.change(name, Method::Post, path, None).await {
            Ok(message) => Outcome { ok: true, message, differs: None },
            Err(message) => Outcome::failed(message),
        };
        self.set_outcome(name, outcome);
    }

    /// Makes `name` the primary.
    pub async fn set_primary(&self, name: &str) {
        let Some(project) = self.chosen() else { return };
        let path = self.path(Route::Primary(&project, name));
        let outcome = match self.change(name, Method::Post, path, None).await {
            Ok(message) => Outcome { ok: true, message, differs: None },
            Err(message) => Outcome::failed(message),
        };
        self.set_outcome(name, outcome);
    }

    /// Sets what `name` does while it serves and is not the primary.
    pub async fn set_role(&self, name: &str, role: DomainRole) {
        let Some(project) = self.chosen() else { return };
        let path = self.path(Route::Role(&project, name));
        let outcome = match self.change(name, Method::Put, path, Some(json!({"role": role}))).await {
            Ok(message) => Outcome { ok: true, message, differs: None },
            Err(message) => Outcome::failed(message),
        };
        self.set_outcome(name, outcome);
    }

    /// Keeps `name` attached as a 301 redirect to `target` instead of removing it: `target`
    /// becomes the primary first if `name` is the published one.
    pub async fn keep_as_redirect(&self, name: &str, target: &str) {
        let Some(project) = self.chosen() else { return };
        let primary =
            self.project.with_untracked(|p| p.as_ref().is_some_and(|p| p.published_address == name));
        if primary {
            let path = self.path(Route::Primary(&project, target));
            if let Err(message) = self.change(name, Method::Post, path, None).await {
                self.set_outcome(name, Outcome::failed(message));
                return;
            }
        }
        let path = self.path(Route::Role(&project, name));
        let body = json!({"role": DomainRole::Redirect});
        let outcome = match self.change(name, Method::Put, path, Some(body)).await {
            Ok(_) => {
                Outcome::done(&Event::KeptAsRedirect { name: name.to_owned(), target: target.to_owned() })
            }
            Err(message) => Outcome::failed(message),
        };
        self.set_outcome(name, outcome);
    }

    /// Remove: detaches `name` at once.
    pub async fn remove(&self, name: &str) {
        let Some(project) = self.chosen() else { return };
        let path = self.path(Route::Domain(&project, name));
        match self.change(name, Method::Delete, path, None).await {
            Ok(message) => {
                self.outcomes.update(|o| {
                    o.remove(name);
                });
                self.announcement.set(message);
            }
            Err(message) => self.set_outcome(name, Outcome::failed(message)),
        }
    }

    /// The names of the chosen project's domains, in the host's order.
    #[must_use]
    pub fn names(&self) -> Vec<String> {
        self.project.with(|p| {
            p.as_ref().map(|p| p.domains.iter().map(|d| d.name.clone()).collect()).unwrap_or_default()
        })
    }

    /// What the card of `name` shows now.
    #[must_use]
    pub fn domain_view(&self, name: &str) -> DomainView {
        let now = self.now.get();
        let checking = self.is_busy(name);
        let local = self.outcomes.with(|o| o.get(name).cloned());
        self.project.with(|p| {
            let project = p.as_ref();
            let domain = project.and_then(|p| p.domain(name));
            let state = domain.map_or(DomainState::None, |d| d.domain_state());
            // What the host remembers of the last check, until this page does something.
            let remembered = domain.and_then(|d| d.last_check.as_ref()).map(|c| Outcome {
                ok: c.ok,
                message: c.message.clone(),
                differs: None,
            });
            DomainView {
                state,
                instruction: domain.map(|d| d.instruction.clone()),
                primary: domain.is_some_and(|d| d.primary),
                role: domain.map_or(DomainRole::Redirect, |d| d.role),
                checking,
                checking_note: "Waiting for the host\u{2026}",
                outcome: local.or(remembered),
                now,
                certificate: domain.map_or(CertificateStatus::NotRequested, |d| d.certificate.status()),
                authority: project.map(|p| p.certificate_authority.clone()).unwrap_or_default(),
                removal: domain.and_then(|d| d.removal()),
                // An error from before an issued certificate is history.
                issue_error: domain
                    .filter(|d| !matches!(d.certificate, HostedCertificate::Issued { .. }))
                    .and_then(|d| d.issue_error.as_ref())
                    .map(|e| e.message.clone()),
            }
        })
    }
}
