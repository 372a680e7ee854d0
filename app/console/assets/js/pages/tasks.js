// #/tasks/{id}?sessionId= — one task: its status history as a timeline, its products, and
// its record (who recorded which command, answer and message, relayed or not).

import { api, pager } from "../api.js";
import {
  agentRef,
  dataText,
  enc,
  facts,
  h,
  link,
  notice,
  pagedRows,
  pill,
  section,
  table,
  timeTag,
  when,
} from "../dom.js";

const PAGE = 50;
const LIVE_MS = 300;

export const taskLink = (id, sessionId, text = id) =>
  link(`#/tasks/${enc(id)}?sessionId=${enc(sessionId || "")}`, text);

// the states a task went through, in a line: submitted → accepted → working → …
export function stateTrail(task) {
  const first = { state: "submitted", stateChangedAt: task.createdAt };
  const steps = [first, ...(task.statusHistory || [])];
  const step = (s) =>
    h("li", { title: s.stateChangedAt }, pill(s.state), h("small", {}, when(s.stateChangedAt)));
  return h("ol", { class: "trail" }, steps.map(step));
}

function timeline(task) {
  const steps = [
    { state: "submitted", stateChangedAt: task.createdAt, by: "the leader's start" },
    ...(task.statusHistory || []),
  ];
  if (task.releasedAt) {
    steps.push({ state: "released", stateChangedAt: task.releasedAt, by: "its session closed" });
  }
  return h(
    "ol",
    { class: "timeline" },
    steps.map((step) =>
      h(
        "li",
        { class: "step", dataset: { state: step.state } },
        h("div", { class: "when" }, timeTag(step.stateChangedAt)),
        h("div", { class: "what" }, pill(step.state), " ", h("span", { class: "muted" }, step.by)),
        step.dataItems?.length ? h("pre", { class: "data" }, dataText(step.dataItems)) : null,
      ),
    ),
  );
}

function products(task) {
  if (!task.products?.length) return notice("No products yet.");
  return task.products.map((product) =>
    h(
      "article",
      { class: "product" },
      h("h3", {}, product.name || product.id, " ", h("small", {}, product.name ? product.id : "")),
      product.description ? h("p", {}, product.description) : null,
      h("pre", { class: "data" }, dataText(product.dataItems)),
    ),
  );
}

// what a recorded message did to the task, in a few words
export function gist(message) {
  switch (message.type) {
    case "task-command":
      if (!message.partnerId) return h("b", {}, message.command);
      return [h("b", {}, message.command), " to ", agentRef(message.partnerId)];
    case "task-result":
    case "task-status-update":
      return [message.type === "task-result" ? "result " : "status ", pill(message.status?.state)];
    case "product-chunk":
      return `product ${message.product?.id}${message.lastChunk ? " (last chunk)" : ""}`;
    default:
      return "message";
  }
}

function recordRow(message) {
  const text = dataText(message.dataItems || message.status?.dataItems);
  const verified = `verified signature: ${message.verified}`;
  const relayed = message.relayedBy
    ? h("span", { class: "chip", title: verified }, "relayed by ", agentRef(message.relayedBy))
    : null;
  return h(
    "tr",
    {},
    h("td", {}, timeTag(message.sentAt)),
    h("td", {}, agentRef(message.senderId), h("div", { class: "muted small" }, message.senderRole)),
    h("td", {}, gist(message), relayed),
    h("td", {}, text ? h("pre", { class: "data" }, text) : h("span", { class: "muted" }, "—")),
  );
}

async function record(task, route) {
  const tbody = h("tbody");
  const grid = table(["Sent", "Recorded by", "What", "Data"], []);
  grid.querySelector("tbody").replaceWith(tbody);
  const path = `/v1/sessions/${enc(task.sessionId)}/tasks/${enc(task.id)}/messages`;
  const pages = pager(path, { limit: PAGE }, route.signal);
  const { holder, load } = pagedRows(tbody, pages, recordRow, route.fail);
  await load();
  return [grid, holder];
}

async function render(view, route, id, sessionId) {
  const task = await api(`/v1/tasks/${enc(id)}`, { sessionId }, route.signal);
  const about = facts([
    ["state", pill(task.state)],
    ["leader → partner", [agentRef(task.leaderId), " → ", agentRef(task.partnerId)]],
    ["session", link(`#/sessions/${enc(task.sessionId)}`, task.sessionId)],
    ["group", task.groupId && link(`#/groups/${enc(task.groupId)}`, task.groupId)],
    ["parent task", task.parentTaskId && taskLink(task.parentTaskId, task.sessionId)],
    ["depends on", task.dependencies?.length ? task.dependencies.join(", ") : null],
    ["created", timeTag(task.createdAt)],
  ]);
  const recorded = await record(task, route).catch((error) => notice(error.message, "error"));
  view.replaceChildren(
    h("h1", {}, "Task ", h("span", { class: "id" }, task.id)),
    about,
    h(
      "div",
      { class: "columns" },
      section("Timeline", timeline(task)),
      section("Products", products(task)),
    ),
    section("Record: who recorded what", recorded),
  );
  return task;
}

export async function detail(view, route) {
  const [id] = route.params;
  let sessionId = route.query.get("sessionId");
  let pending = null;
  route.on("task", (event) => {
    if (event.taskId !== id || (sessionId && event.sessionId !== sessionId)) return;
    clearTimeout(pending); // a burst of moves: one reload
    const again = () => render(view, route, id, sessionId).catch(route.fail);
    pending = setTimeout(again, LIVE_MS);
  });
  const task = await render(view, route, id, sessionId);
  sessionId = task.sessionId;
}
