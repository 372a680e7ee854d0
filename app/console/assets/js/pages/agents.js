// #/agents?q=&status=&protocol= — the registry: search by described need (with the score),
// status, skills, protocols and certificate state, a page at a time.

import { api, isOperator, pager } from "../api.js";
import { chips, clear, enc, h, link, none, notice, pagedRows, pill } from "../dom.js";
import { rememberName, table, timeTag } from "../dom.js";

const PAGE = 50;
const HEADINGS = [
  "Agent",
  "Status",
  "Score",
  "Skills",
  "Protocols",
  "Certificate",
  "Last seen",
  "",
];
const TYPING_MS = 300;
const LIVE_MS = 1000; // live changes, gathered for a second before the list reloads

function select(name, label, options, value) {
  return h(
    "label",
    {},
    `${label} `,
    h(
      "select",
      { name },
      options.map((option) =>
        h("option", { value: option, selected: option === value }, option || "any"),
      ),
    ),
  );
}

function row(agent) {
  rememberName(agent.id, agent.name);
  const skills = chips(agent.skills, (s) => s.name || s.id, (s) => (s.tags || []).join(", "));
  const protocols = chips(agent.protocols, (p) => p.protocol, (p) => p.url);
  const certificate = agent.certificate;
  const until = certificate?.notAfter ? `until ${certificate.notAfter}` : undefined;
  return h(
    "tr",
    { dataset: { agentId: agent.id } },
    h(
      "td",
      {},
      h("div", { class: "name" }, h("b", {}, agent.name), " ", h("code", {}, agent.id)),
      h("div", { class: "muted small" }, agent.description || ""),
    ),
    h("td", {}, pill(agent.status)),
    h("td", { class: "num" }, agent.score == null ? "—" : agent.score.toFixed(3)),
    h("td", {}, skills),
    h("td", {}, protocols),
    h("td", {}, certificate ? pill(certificate.state, until) : none()),
    h("td", {}, timeTag(agent.lastSeenAt)),
    h("td", {}, link(`#/sessions?agentId=${enc(agent.id)}`, "sessions")),
  );
}

export async function list(view, route) {
  const operator = isOperator();
  const query = route.query;
  const q = h("input", {
    type: "search",
    name: "q",
    value: query.get("q") || "",
    placeholder: "a described need: “square root”, “market report”…",
    "aria-label": "search agents",
  });
  const filters = h(
    "form",
    { class: "filters", method: "post", action: "." },
    q,
    select("status", "status", ["", "online", "offline"], query.get("status") || ""),
    select("protocol", "protocol", ["", "aip", "a2a"], query.get("protocol") || ""),
    h("button", { type: "submit" }, "Search"),
  );
  const results = h("div", { class: "results" });
  view.append(h("h1", {}, "Agents"), filters, results);
  if (!operator) {
    view.append(notice("Agent view: certificate states need the operator token.", "info"));
  }

  let shown = 0;
  const show = async () => {
    const shownNow = ++shown;
    const params = Object.fromEntries(new FormData(filters));
    params.limit = PAGE;
    const hash = new URLSearchParams(Object.entries(params).filter(([k, v]) => v && k !== "limit"));
    history.replaceState(null, "", `#/agents${hash.toString() ? `?${hash}` : ""}`);
    const one = query.get("id");
    const grid = table(HEADINGS);
    const tbody = grid.tBodies[0];
    if (one && !params.q) {
      // #/agents?id=… (an agent named elsewhere in the console): that one card
      const card = await api(`/v1/agents/${enc(one)}`, {}, route.signal);
      if (shownNow !== shown) return;
      clear(results).append(grid);
      tbody.append(row(card));
      return;
    }
    const path = operator ? "/v1/operator/agents" : "/v1/agents";
    const pages = pager(path, params, route.signal);
    const { holder, load } = pagedRows(tbody, pages, row, route.fail);
    clear(results).append(grid, holder);
    await load();
  };
  let typing = null;
  q.addEventListener("input", () => {
    clearTimeout(typing);
    typing = setTimeout(() => {
      query.delete("id");
      show();
    }, TYPING_MS);
  });
  filters.addEventListener("change", (event) => event.target.tagName === "SELECT" && show());
  filters.addEventListener("submit", (event) => {
    event.preventDefault();
    query.delete("id");
    show();
  });
  let changed = null;
  route.on("agent", () => {
    // registrations and status changes: a fresh first page, unless the reader went further
    clearTimeout(changed);
    changed = setTimeout(() => {
      if (results.querySelectorAll("tbody tr").length <= PAGE) show();
    }, LIVE_MS);
  });
  await show();
}
