// The health strip on every page: /v1/operator/health every few seconds (an agent's token
// gets /readyz instead), and the state of the console's own live stream.

import { api, hubUrl, isOperator } from "./api.js";
import { clear, h, pill } from "./dom.js";
import { liveStatus, onLiveStatus } from "./live.js";

const POLL_MS = 5000;
let timer = null;
let running = 0; // the poll's generation: a stopped poll does not rearm itself
let unsubscribe = () => {};

const rate = (value) => (typeof value === "number" ? value.toFixed(1) : "—");

function item(label, value) {
  return h("span", { class: "metric" }, h("span", { class: "label" }, label), " ", value);
}

async function operatorHealth() {
  const health = await api("/v1/operator/health");
  return [
    item("store", pill(health.store)),
    item("broker", pill(health.broker)),
    item("open streams", h("b", {}, health.openStreams ?? "—")),
    item("deliveries/s", h("b", {}, rate(health.deliveriesPerSecond))),
    item("ingest/s", h("b", {}, rate(health.ingestPerSecond))),
    item("version", health.version ?? "—"),
  ];
}

async function readiness() {
  const response = await fetch(hubUrl("/readyz"), { cache: "no-store" });
  const state = response.ok ? "ok" : "down";
  return [item("hub", pill(state)), h("span", { class: "muted" }, "(agent view: no metrics)")];
}

async function refresh(metrics) {
  let parts;
  try {
    parts = await (isOperator() ? operatorHealth() : readiness());
  } catch (error) {
    parts = [item("hub", pill("down", error.message))];
  }
  clear(metrics).append(...parts);
  metrics.dataset.updated = new Date().toISOString();
}

export function startHealth(strip) {
  stopHealth();
  const metrics = h("span", { class: "metrics" });
  const live = h("span", { class: "live" });
  const showLive = (state) => clear(live).append(item("live", pill(state)));
  clear(strip).append(metrics, live);
  live.hidden = !isOperator();
  showLive(liveStatus());
  unsubscribe = onLiveStatus(showLive);
  const generation = ++running;
  const tick = () =>
    refresh(metrics).finally(() => {
      if (generation === running) timer = setTimeout(tick, POLL_MS);
    });
  tick();
}

export function stopHealth() {
  running++;
  clearTimeout(timer);
  unsubscribe();
}
