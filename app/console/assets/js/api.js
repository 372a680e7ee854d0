// The hub's API as the console calls it: the bearer token from sessionStorage (never a URL),
// problem+json errors as ApiError, and the two ways of signing in.

const KEY = "agenthub.console";
// index.html's <base> is ".../console/": the hub is one level up (its root path included)
export const HUB_ROOT = new URL("..", document.baseURI);

export class ApiError extends Error {
  constructor(status, problem) {
    super(problem.detail || problem.title || `HTTP ${status}`);
    this.status = status;
    this.problem = problem;
  }

  // a page that needs the operator's routes, read with an agent's token
  get refused() {
    return this.status === 403 || (this.status === 404 && !isOperator());
  }
}

// What sessionStorage holds: the token, "operator" or "agent", and the agent's id.
export function signedIn() {
  const raw = sessionStorage.getItem(KEY);
  return raw ? JSON.parse(raw) : null;
}

export function isOperator() {
  return signedIn()?.mode === "operator";
}

export function signOut() {
  sessionStorage.removeItem(KEY);
}

function tokenSubject(token) {
  // an access token is a JWT whose `sub` is the agent; read for display only, the hub checks it
  try {
    const part = token.split(".")[1].replace(/-/g, "+").replace(/_/g, "/");
    return JSON.parse(atob(part)).sub || null;
  } catch {
    return null;
  }
}

export function hubUrl(path, params = {}) {
  const url = new URL(path.replace(/^\//, ""), HUB_ROOT);
  for (const [name, value] of Object.entries(params)) {
    if (value !== undefined && value !== null && value !== "") url.searchParams.set(name, value);
  }
  return url;
}

async function call(token, path, params, signal) {
  const response = await fetch(hubUrl(path, params), {
    headers: { Authorization: `Bearer ${token}`, Accept: "application/json" },
    cache: "no-store",
    signal,
  });
  if (!response.ok) {
    let problem = {};
    try {
      problem = await response.json();
    } catch {
      // not problem+json (a proxy's page): the status says enough
    }
    throw new ApiError(response.status, problem);
  }
  return response.json();
}

// GET a hub route with the signed-in token. A 401 means the token expired or was revoked:
// the console goes back to its sign-in form.
export async function api(path, params = {}, signal = undefined) {
  const who = signedIn();
  if (!who) throw new ApiError(401, { detail: "Not signed in." });
  try {
    return await call(who.token, path, params, signal);
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) {
      signOut();
      window.dispatchEvent(new CustomEvent("console:signed-out", { detail: error.message }));
    }
    throw error;
  }
}

// The operator's token opens /v1/operator/*; an agent's access token is refused there
// (403) but reads what that agent may see through the ordinary routes.
export async function signIn(token) {
  token = token.trim();
  if (!token) throw new Error("Paste the operator token or an agent's access token.");
  try {
    await call(token, "/v1/operator/health");
    sessionStorage.setItem(KEY, JSON.stringify({ token, mode: "operator" }));
    return signedIn();
  } catch (error) {
    // 403: an agent's token; 404: a hub without the operator's routes
    if (!(error instanceof ApiError) || ![401, 403, 404].includes(error.status)) throw error;
  }
  try {
    await call(token, "/v1/agents", { limit: 1 });
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) {
      throw new Error("The hub does not take this token (expired, or not one of its tokens).");
    }
    throw error;
  }
  const agentId = tokenSubject(token);
  sessionStorage.setItem(KEY, JSON.stringify({ token, mode: "agent", agentId }));
  return signedIn();
}

// Every page of a list route, one at a time: `next()` answers {items, more}.
export function pager(path, params, signal) {
  let cursor = null;
  let done = false;
  return {
    get done() {
      return done;
    },
    async next() {
      const page = await api(path, { ...params, cursor }, signal);
      cursor = page.nextCursor;
      done = !cursor;
      return page.items;
    },
  };
}
