// #/sessions?state=&agentId= — sessions, with their participants and modes;
// #/sessions/{id} — one session: participants, its groups, its tasks with their state trail.

import { api, isOperator, pager } from "../api.js";
import { agentRef, enc, h, link, named, none, notice, pagedTable, pill } from "../dom.js";
import { callerRef, facts, memberCount, section, table, timeTag } from "../dom.js";
import { stateTrail, titledTask } from "./tasks.js";

const PAGE = 50;
const LIVE_MS = 500;
const SESSION_HEADINGS = [
  "Session",
  "State",
  "Leader",
  "Receivers (mode)",
  "Tasks",
  "Groups",
  "Created",
];

function receivers(session) {
  return (session.receivers || []).map((r) =>
    h("span", { class: "participant" }, agentRef(r.agentId), h("span", { class: "mode" }, r.mode)),
  );
}

function row(session) {
  const bridge = session.bridge ? h("span", { class: "chip" }, session.bridge.protocol) : null;
  return h(
    "tr",
    { dataset: { sessionId: session.id } },
    h(
      "td",
      {},
      link(`#/sessions/${enc(session.id)}`, session.title || session.id),
      session.title ? h("div", { class: "muted small" }, session.id) : null,
    ),
    h("td", {}, pill(session.state), " ", bridge),
    h("td", {}, agentRef(session.sender?.agentId)),
    h("td", {}, receivers(session)),
    h("td", { class: "num" }, session.taskCount ?? "—"),
    h("td", { class: "num" }, session.groupCount ?? "—"),
    h("td", {}, timeTag(session.createdAt)),
  );
}

function filters(state, agentId) {
  const options = ["", "open", "closed"].map((s) =>
    h("option", { value: s, selected: s === state }, s || "any"),
  );
  const form = h(
    "form",
    { class: "filters", method: "post", action: "." },
    h("label", {}, "state ", h("select", { name: "state" }, options)),
    h("label", {}, "agent ", h("input", { name: "agentId", value: agentId, placeholder: "id" })),
    h("button", { type: "submit" }, "Filter"),
  );
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const params = new URLSearchParams([...new FormData(form)].filter(([, v]) => v));
    location.hash = `#/sessions${params.toString() ? `?${params}` : ""}`;
  });
  return form;
}

export async function list(view, route) {
  const state = route.query.get("state") || "";
  const agentId = route.query.get("agentId") || "";
  const operator = isOperator();
  view.append(h("h1", {}, "Sessions"), filters(state, agentId));
  if (!operator) view.append(notice("Agent view: the sessions this agent takes part in."));
  const path = operator ? "/v1/operator/sessions" : "/v1/sessions";
  const params = { state, agentId: operator ? agentId : "", limit: PAGE };
  const sessions = pagedTable(SESSION_HEADINGS, pager(path, params, route.signal), row, route.fail);
  view.append(...sessions.nodes);
  await sessions.load();
}

function participants(session) {
  const rows = [
    h("tr", {}, h("td", {}, agentRef(session.sender?.agentId)), h("td", {}, "leader"), h("td")),
    ...(session.receivers || []).map((r) =>
      h("tr", {}, h("td", {}, agentRef(r.agentId)), h("td", {}, "receiver"), h("td", {}, r.mode)),
    ),
  ];
  return table(["Agent", "Role", "Mode"], rows);
}

function groupRow(group) {
  const parent = group.parentGroupId;
  return h(
    "tr",
    {},
    h("td", {}, named(`#/groups/${enc(group.id)}`, group.name, group.id)),
    h("td", {}, pill(group.conversationState)),
    h("td", { class: "num" }, group.depth ?? "—"),
    h("td", { class: "num" }, memberCount(group)),
    h("td", {}, parent ? link(`#/groups/${enc(parent)}`, "parent") : none()),
  );
}

export function taskRow(task) {
  return h(
    "tr",
    { dataset: { taskId: task.id } },
    h("td", {}, titledTask(task)),
    h("td", {}, agentRef(task.leaderId), " → ", agentRef(task.partnerId)),
    h("td", {}, pill(task.state)),
    h("td", {}, stateTrail(task)),
    h("td", {}, task.groupId ? link(`#/groups/${enc(task.groupId)}`, "group") : none()),
  );
}

async function groupsOf(session, route) {
  if (!isOperator()) {
    return notice("Agent view: a session's groups are listed with the operator token.");
  }
  const params = { sessionId: session.id, limit: PAGE };
  const pages = pager("/v1/operator/groups", params, route.signal);
  const headings = ["Group", "Conversation", "Depth", "Members", "Parent"];
  const groups = pagedTable(headings, pages, groupRow, route.fail);
  await groups.load();
  return groups.nodes;
}

async function tasksOf(session, route, into) {
  const path = isOperator() ? "/v1/operator/tasks" : "/v1/tasks";
  const pages = pager(path, { sessionId: session.id, limit: PAGE }, route.signal);
  const headings = ["Task", "Leader → partner", "State", "Timeline", "Group"];
  const tasks = pagedTable(headings, pages, taskRow, route.fail);
  await tasks.load();
  into.replaceChildren(h("h2", {}, "Tasks"), ...tasks.nodes);
}

function sessionFacts(session) {
  const bridge = session.bridge;
  return facts([
    ["state", pill(session.state)],
    ["created", timeTag(session.createdAt)],
    ["closed", session.closedAt && timeTag(session.closedAt)],
    ["goal", session.goal],
    ["bridge", bridge && `${bridge.protocol}, context ${bridge.contextId}`],
    ["caller", bridge && callerRef(bridge.caller)],
  ]);
}

export async function detail(view, route) {
  const [id] = route.params;
  const session = await api(`/v1/sessions/${enc(id)}`, {}, route.signal);
  const tasks = section("Tasks", notice("Loading…"));
  const groups = section("Groups", notice("Loading…"));
  view.append(
    h("h1", {}, "Session ", h("span", { class: "id" }, session.title || session.id)),
    sessionFacts(session),
    h("div", { class: "columns" }, section("Participants", participants(session)), groups),
    tasks,
  );
  let pending = null;
  route.on("task", (event) => {
    if (event.sessionId !== session.id) return;
    clearTimeout(pending); // moves come in bursts: one reload for each
    pending = setTimeout(() => tasksOf(session, route, tasks).catch(route.fail), LIVE_MS);
  });
  await tasksOf(session, route, tasks);
  const found = await groupsOf(session, route).catch((error) => notice(error.message, "error"));
  groups.replaceChildren(h("h2", {}, "Groups"), ...[found].flat());
}
