// The console's shell: sign-in, the hash router (#/agents, #/sessions/{id}, …), the header,
// the health strip and the live stream. Each page is a module whose `render(view, route)`
// fills `view`; `route.signal` aborts when the operator navigates away, and `route.on`
// subscribes to live events until then.

import { ApiError, isOperator, signIn, signOut, signedIn } from "./api.js";
import { clear, h, notice } from "./dom.js";
import { startHealth, stopHealth } from "./health.js";
import { on, startLive, stopLive } from "./live.js";
import * as agents from "./pages/agents.js";
import * as groups from "./pages/groups.js";
import * as sessions from "./pages/sessions.js";
import * as tasks from "./pages/tasks.js";

const ROUTES = [
  [/^\/agents$/, agents.list, "agents"],
  [/^\/sessions$/, sessions.list, "sessions"],
  [/^\/sessions\/([^/]+)$/, sessions.detail, "sessions"],
  [/^\/groups$/, groups.list, "groups"],
  [/^\/groups\/([^/]+)$/, groups.detail, "groups"],
  [/^\/tasks\/([^/]+)$/, tasks.detail, "sessions"],
];

const main = document.getElementById("main");
let leave = new AbortController();

function parseHash() {
  const raw = location.hash.replace(/^#/, "") || "/agents";
  const [path, query = ""] = raw.split("?");
  return { path, query: new URLSearchParams(query) };
}

// what an error means to the reader: agents' tokens meet 403/404 on the operator's routes
function showError(view, error) {
  if (error?.name === "AbortError") return;
  let text = error?.message || String(error);
  if (error instanceof ApiError && error.refused && !isOperator()) {
    text = `The hub refused this to an agent's token (${error.status}): it needs the operator's.`;
  }
  view.append(notice(text, "error"));
}

async function route() {
  leave.abort();
  leave = new AbortController();
  const { signal } = leave;
  const { path, query } = parseHash();
  const match = ROUTES.map(([pattern, page, nav]) => [path.match(pattern), page, nav]).find(
    ([found]) => found,
  );
  for (const a of document.querySelectorAll("[data-nav]")) {
    a.classList.toggle("current", Boolean(match) && a.dataset.nav === match[2]);
  }
  // each visit gets its own element: what a page left running writes nowhere visible
  const view = h("div", { class: "page" });
  clear(main).append(view);
  if (!match) {
    view.append(notice(`No page at #${path}.`, "error"));
    return;
  }
  const [found, page] = match;
  const context = {
    params: found.slice(1).map(decodeURIComponent),
    query,
    signal,
    on(kind, fn) {
      const off = on(kind, fn);
      signal.addEventListener("abort", off);
    },
    fail: (error) => signal.aborted || showError(view, error),
  };
  try {
    await page(view, context);
  } catch (error) {
    context.fail(error);
  }
}

function showSignedIn() {
  const who = signedIn();
  document.getElementById("nav").hidden = false;
  document.getElementById("sign-out").hidden = false;
  const label = who.mode === "operator" ? "operator" : `agent ${who.agentId || ""}`;
  document.getElementById("who").textContent = `signed in as ${label}`;
  startHealth(document.getElementById("health"));
  startLive();
  route();
}

function showSignIn(message = "") {
  leave.abort();
  stopLive();
  stopHealth();
  document.getElementById("nav").hidden = true;
  document.getElementById("sign-out").hidden = true;
  document.getElementById("who").textContent = "";
  clear(document.getElementById("health"));
  const token = h("input", {
    type: "password",
    id: "token",
    name: "token",
    autocomplete: "off",
    required: true,
    placeholder: "operator token, or an agent's access token",
  });
  const error = h("p", { class: "notice error", hidden: !message }, message);
  const button = h("button", { type: "submit" }, "Sign in");
  // method=post: should the script fail, a plain submit never puts the token in the URL
  const form = h(
    "form",
    { class: "sign-in card", method: "post", action: "." },
    h("h1", {}, "Sign in"),
    h(
      "p",
      {},
      "The operator token (AGENTHUB_OPERATOR_TOKEN) shows the whole hub. An agent's access " +
        "token shows what that agent may see. The token stays in this tab (sessionStorage) " +
        "and goes only to this hub, in the Authorization header.",
    ),
    h("label", { for: "token" }, "Token"),
    token,
    button,
    error,
  );
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    button.disabled = true;
    error.hidden = true;
    try {
      await signIn(token.value);
      token.value = "";
      showSignedIn();
    } catch (failure) {
      error.textContent = failure.message;
      error.hidden = false;
    }
    button.disabled = false;
  });
  clear(main).append(form);
  token.focus();
}

// served at /console: the page's own links resolve against /console/ (its <base>)
if (!location.pathname.endsWith("/")) {
  history.replaceState(null, "", `${location.pathname}/${location.search}${location.hash}`);
}
window.addEventListener("hashchange", () => signedIn() && route());
// the stream could not resume where it broke off: what a page shows may be missing events
on("reset", () => signedIn() && route());
window.addEventListener("console:signed-out", (event) =>
  showSignIn(`Signed out: ${event.detail}`),
);
document.getElementById("sign-out").addEventListener("click", () => {
  signOut();
  showSignIn();
});
if (signedIn()) showSignedIn();
else showSignIn();
