// #/tasks/{id}?sessionId= — one task: its status history as a timeline, its products, and
// its record (who recorded which command, answer and message, relayed or not) in causal order.

import { api } from "../api.js";
import { causalOrder } from "../causal.js";
import { agentRef, callerRef, clock, dataText, day, enc, facts, h, link, notice } from "../dom.js";
import { parseTime, pill, section, table, timeTag, when } from "../dom.js";

const PAGE = 50;
const LIVE_MS = 300;
const TITLE_CHARS = 80;
const TITLE_READS = 4; // titles read at once
const TITLE_MESSAGES = 10; // a task's first records, in which its start is looked for

export const taskLink = (id, sessionId, text = id) =>
  link(`#/tasks/${enc(id)}?sessionId=${enc(sessionId || "")}`, text);

// the states a task went through, in a line: submitted → accepted → working → …; the first
// step's date and zone, then a step's clock alone while the day stays the same
export function stateTrail(task) {
  const first = { state: "submitted", stateChangedAt: task.createdAt };
  const steps = [first, ...(task.statusHistory || [])];
  let shownDay = null;
  const step = (s) => {
    const t = parseTime(s.stateChangedAt);
    const sameDay = t && day(t) === shownDay;
    shownDay = t ? day(t) : shownDay;
    const at = sameDay ? clock(t) : when(s.stateChangedAt);
    return h("li", { title: when(s.stateChangedAt) }, pill(s.state), h("small", {}, at));
  };
  return h("ol", { class: "trail" }, steps.map(step));
}

// a task's title: the text of its first command (its `start`), its first line, shortened
export function titleOf(messages) {
  const commands = messages.filter((m) => m.type === "task-command");
  const first = commands.find((m) => m.command === "start") || commands[0];
  const text = first ? dataText(first.dataItems).trim().split("\n")[0].trim() : "";
  return text.length > TITLE_CHARS ? `${text.slice(0, TITLE_CHARS - 1).trimEnd()}…` : text;
}

const titles = new Map(); // "session/task" -> Promise of its title ("" while none is known)
const reads = { running: 0, queue: [] };

function nextRead() {
  while (reads.running < TITLE_READS && reads.queue.length) {
    const read = reads.queue.shift();
    reads.running += 1;
    read().finally(() => {
      reads.running -= 1;
      nextRead();
    });
  }
}

// the title of a task, read from its record (a few at a time, once per task per page load)
export function taskTitle(task) {
  const key = `${task.sessionId}/${task.id}`;
  if (!titles.has(key)) {
    const path = `/v1/sessions/${enc(task.sessionId)}/tasks/${enc(task.id)}/messages`;
    const title = new Promise((resolve) => {
      reads.queue.push(() =>
        api(path, { limit: TITLE_MESSAGES }).then(
          (page) => resolve(titleOf(page.items)),
          () => resolve(""),
        ),
      );
      nextRead();
    });
    titles.set(key, title);
    title.then((text) => text || titles.delete(key)); // none yet: asked again next time
  }
  return titles.get(key);
}

// a task named by its title (its id until the title is read), its id below
export function titledTask(task) {
  const name = taskLink(task.id, task.sessionId);
  name.classList.add("task-title");
  taskTitle(task).then((text) => {
    if (text) name.textContent = text;
  });
  return [name, h("div", { class: "muted small task-id" }, task.id)];
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
    { dataset: { type: message.type, id: message.id } },
    h("td", {}, timeTag(message.sentAt)),
    h("td", {}, agentRef(message.senderId), h("div", { class: "muted small" }, message.senderRole)),
    h("td", {}, gist(message), relayed),
    h("td", {}, text ? h("pre", { class: "data" }, text) : h("span", { class: "muted" }, "—")),
  );
}

// the task's record, a page at a time (`More`), all of it read so far shown in causal order
async function record(task, route) {
  const grid = table(["Sent", "Recorded by", "What", "Data"], [], "list record");
  const tbody = grid.tBodies[0];
  const more = h("button", { type: "button", class: "more" }, "More");
  const holder = h("div", { class: "more-holder" }, more);
  const path = `/v1/sessions/${enc(task.sessionId)}/tasks/${enc(task.id)}/messages`;
  const read = [];
  let after = null;
  const load = async () => {
    more.disabled = true;
    try {
      const page = await api(path, { limit: PAGE, after }, route.signal);
      read.push(...page.items);
      after = page.nextCursor;
      const rows = causalOrder(read).map(recordRow);
      if (!rows.length) rows.push(h("tr", {}, h("td", { colspan: 4, class: "muted" }, "None.")));
      tbody.replaceChildren(...rows);
    } catch (error) {
      route.fail(error);
    }
    more.disabled = false;
    holder.hidden = !after;
  };
  more.addEventListener("click", load);
  await load();
  return [grid, holder];
}

async function render(view, route, id, sessionId) {
  const task = await api(`/v1/tasks/${enc(id)}`, { sessionId }, route.signal);
  const about = facts([
    ["state", pill(task.state)],
    ["leader → partner", [agentRef(task.leaderId), " → ", agentRef(task.partnerId)]],
    ["caller", callerRef(task.caller)],
    ["session", link(`#/sessions/${enc(task.sessionId)}`, task.sessionId)],
    ["group", task.groupId && link(`#/groups/${enc(task.groupId)}`, task.groupId)],
    ["parent task", task.parentTaskId && taskLink(task.parentTaskId, task.sessionId)],
    ["depends on", task.dependencies?.length ? task.dependencies.join(", ") : null],
    ["created", timeTag(task.createdAt)],
  ]);
  const recorded = await record(task, route).catch((error) => notice(error.message, "error"));
  const title = await taskTitle(task);
  view.replaceChildren(
    h("h1", {}, "Task ", h("span", { class: title ? "task-title" : "id" }, title || task.id)),
    title ? h("div", { class: "muted small task-id" }, task.id) : null,
    about,
    h(
      "div",
      { class: "columns" },
      section("Timeline", timeline(task)),
      section("Products", products(task)),
    ),
    section("Record: who recorded what, the command before the answers it caused", recorded),
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
