// The operator's event stream (/v1/operator/events), opened once while signed in as the
// operator; pages subscribe to the kinds they show. A `reset` (the hub could not resume from
// our Last-Event-ID) reaches every subscriber: each reloads what it shows.

import { hubUrl, isOperator, signedIn } from "./api.js";
import { EventStream } from "./sse.js";

const listeners = new Map(); // kind -> Set of functions
let stream = null;
let status = "off";
const statusListeners = new Set();

export function liveStatus() {
  return status;
}

export function onLiveStatus(fn) {
  statusListeners.add(fn);
  return () => statusListeners.delete(fn);
}

function setStatus(value, detail) {
  status = value === "refused" ? `refused (${detail})` : value;
  for (const fn of statusListeners) fn(status);
}

// fn(data, kind) for each event of `kind` ("*": all); answers the unsubscribe function
export function on(kind, fn) {
  if (!listeners.has(kind)) listeners.set(kind, new Set());
  listeners.get(kind).add(fn);
  return () => listeners.get(kind).delete(fn);
}

export function emit(kind, data) {
  for (const key of [kind, "*"]) {
    for (const fn of listeners.get(key) || []) {
      try {
        fn(data, kind);
      } catch (error) {
        console.error("console: a listener failed", error);
      }
    }
  }
}

export function startLive() {
  stopLive();
  if (!isOperator()) return;
  let connected = false;
  const onStatus = (value, detail) => {
    // back after a drop that came before any event: nothing names where to resume from
    if (value === "live" && connected && !stream.lastEventId) emit("reset", {});
    connected ||= value === "live";
    setStatus(value, detail);
  };
  stream = new EventStream(hubUrl("/v1/operator/events"), {
    token: signedIn().token,
    onEvent: (kind, data) => emit(kind, data),
    onStatus,
  });
}

export function stopLive() {
  stream?.close();
  stream = null;
  setStatus("off");
}
