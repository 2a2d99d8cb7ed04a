// XMLHttpRequest for an ApiMock (playground-module-api-mock): a subclass of the page's own
// XMLHttpRequest that sends requests under the mock's prefix to the mock's fetch and behaves
// as the browser's does for them (readyState, status, headers, responseType, load and error
// events, abort, timeout), and leaves every other request to the browser. axios and other
// libraries that use XMLHttpRequest in browsers see the mock like fetch callers do.

/**
 * Replaces globalThis.XMLHttpRequest. `target(url)` says whether the mock takes an absolute URL;
 * `mockFetch(url, init)` answers like fetch. Returns the function that puts the original back.
 */
export function installXhr(target, mockFetch) {
  const Original = globalThis.XMLHttpRequest;
  if (typeof Original !== "function") return () => {};
  const HEADERS_RECEIVED = 2, LOADING = 3, DONE = 4;

  class MockXMLHttpRequest extends Original {
    #mock = null;

    open(method, url, async = true, user, password) {
      const absolute = new URL(String(url), globalThis.location?.href).href;
      if (async !== false && target(absolute)) {
        this.#mock = {
          method: String(method).toUpperCase(), url: absolute, headers: new Headers(),
          readyState: 1, status: 0, statusText: "", response: null, text: "", answer: null,
          controller: null, mime: null, settled: false,
        };
        this.dispatchEvent(new Event("readystatechange"));
        return;
      }
      this.#mock = null;
      return super.open(method, url, async, user, password);
    }

    setRequestHeader(name, value) {
      if (!this.#mock) return super.setRequestHeader(name, value);
      if (this.#mock.readyState !== 1) throw new DOMException("The object's state must be OPENED.", "InvalidStateError");
      this.#mock.headers.append(name, value);
    }

    overrideMimeType(mime) {
      if (!this.#mock) return super.overrideMimeType(mime);
      this.#mock.mime = mime;
    }

    send(body = null) {
      const mock = this.#mock;
      if (!mock) return super.send(body);
      if (mock.readyState !== 1 || mock.controller) throw new DOMException("The object's state must be OPENED.", "InvalidStateError");
      mock.controller = new AbortController();
      const init = { method: mock.method, headers: mock.headers, signal: mock.controller.signal };
      if (body !== null && body !== undefined && mock.method !== "GET" && mock.method !== "HEAD") init.body = body;
      const timeout = this.timeout > 0 ? setTimeout(() => this.#fail("timeout"), this.timeout) : null;
      this.dispatchEvent(new ProgressEvent("loadstart"));
      Promise.resolve()
        .then(() => mockFetch(mock.url, init))
        .then(async (response) => {
          if (this.#mock !== mock || mock.settled) return;
          mock.answer = response;
          mock.status = response.status;
          mock.statusText = response.statusText;
          this.#advance(HEADERS_RECEIVED);
          const type = this.responseType;
          if (type === "arraybuffer") mock.response = await response.arrayBuffer();
          else if (type === "blob") mock.response = await response.blob();
          else {
            mock.text = await response.text();
            if (type === "json") {
              try { mock.response = JSON.parse(mock.text); } catch { mock.response = null; }
            } else if (type === "document") mock.response = null;
            else mock.response = mock.text;
          }
          if (this.#mock !== mock || mock.settled) return;
          mock.settled = true;
          if (timeout) clearTimeout(timeout);
          this.#advance(LOADING);
          this.#advance(DONE);
          const loaded = mock.text.length;
          this.dispatchEvent(new ProgressEvent("progress", { loaded, total: loaded, lengthComputable: true }));
          this.dispatchEvent(new ProgressEvent("load", { loaded, total: loaded, lengthComputable: true }));
          this.dispatchEvent(new ProgressEvent("loadend", { loaded, total: loaded, lengthComputable: true }));
        })
        .catch(() => {
          if (timeout) clearTimeout(timeout);
          if (this.#mock === mock && !mock.settled) this.#fail("error");
        });
    }

    abort() {
      if (!this.#mock) return super.abort();
      const mock = this.#mock;
      if (!mock.settled && mock.controller) this.#fail("abort");
      mock.settled = true;
      mock.readyState = 0;
    }

    #advance(state) {
      this.#mock.readyState = state;
      this.dispatchEvent(new Event("readystatechange"));
    }

    /** Ends the request as the browser does for a network error, a timeout or an abort. */
    #fail(kind) {
      const mock = this.#mock;
      mock.settled = true;
      mock.controller?.abort();
      mock.status = 0;
      mock.statusText = "";
      mock.answer = null;
      mock.response = null;
      mock.text = "";
      this.#advance(DONE);
      this.dispatchEvent(new ProgressEvent(kind));
      this.dispatchEvent(new ProgressEvent("loadend"));
    }

    getResponseHeader(name) {
      if (!this.#mock) return super.getResponseHeader(name);
      return this.#mock.answer?.headers.get(name) ?? null;
    }

    getAllResponseHeaders() {
      if (!this.#mock) return super.getAllResponseHeaders();
      if (!this.#mock.answer) return "";
      let all = "";
      this.#mock.answer.headers.forEach((value, name) => { all += `${name}: ${value}\r\n`; });
      return all;
    }

    get readyState() { return this.#mock ? this.#mock.readyState : super.readyState; }
    get status() { return this.#mock ? this.#mock.status : super.status; }
    get statusText() { return this.#mock ? this.#mock.statusText : super.statusText; }
    get responseURL() { return this.#mock ? (this.#mock.answer ? this.#mock.url : "") : super.responseURL; }
    get response() {
      if (!this.#mock) return super.response;
      const type = this.responseType;
      if (type === "" || type === "text") return this.#mock.readyState >= LOADING ? this.#mock.text : "";
      return this.#mock.readyState === DONE ? this.#mock.response : null;
    }
    get responseText() {
      if (!this.#mock) return super.responseText;
      return this.#mock.readyState >= LOADING ? this.#mock.text : "";
    }
    get responseXML() { return this.#mock ? null : super.responseXML; }
  }

  globalThis.XMLHttpRequest = MockXMLHttpRequest;
  return () => {
    if (globalThis.XMLHttpRequest === MockXMLHttpRequest) globalThis.XMLHttpRequest = Original;
  };
}
