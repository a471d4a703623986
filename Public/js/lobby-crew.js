// The lobby's crew box on each game card (docs/protocol.md, "The table crew"): the admin adds a member with a role
// and a label, and gets the member's link once, as text and as a QR code drawn here (qr.js), to scan with the
// member's phone. The link carries the token in its fragment, so it never reaches the server's or a proxy's log.
import { el } from "./ui.js";
import { ROLES, ROLE_HINTS, ROLE_WORDS, memberLink, renderCrew } from "./crew.js";
import { encodeQR, qrSVG } from "./qr.js";
import { t } from "./i18n.js";
import { answerInWords, fieldErrorsInWords } from "./error-words.js";

const ADMIN_TOKEN_KEY = "courtside.adminToken";

/** One box per game, kept across the lobby's re-renders (a card is rebuilt whenever its game changes). */
const boxes = new Map();

export function crewBox(game) {
  let box = boxes.get(game.id);
  if (!box) {
    box = buildBox(game);
    boxes.set(game.id, box);
  }
  return box;
}

/** Drops the boxes of games no longer listed, so the map does not grow with every game ever seen. */
export function forgetCrewBoxes(listedIDs) {
  for (const id of boxes.keys()) if (!listedIDs.has(id)) boxes.delete(id);
}

function adminToken(field) {
  return field.value.trim() || sessionStorage.getItem(ADMIN_TOKEN_KEY) || document.getElementById("admin-token")?.value.trim() || "";
}

function buildBox(game) {
  const id = game.id;
  const slug = id.replace(/[^A-Za-z0-9_-]/g, "_");
  const api = `/api/games/${encodeURIComponent(id)}/crew`;
  const tokenField = el("input", { id: `crew-admin-${slug}`, type: "password", autocomplete: "off", spellcheck: "false", "data-crew-admin": id });
  tokenField.value = sessionStorage.getItem(ADMIN_TOKEN_KEY) ?? "";
  const role = el("select", { id: `crew-role-${slug}`, name: "role", "data-crew-role": id }, ...ROLES.map((r) => el("option", { value: r, text: `${ROLE_WORDS[r]} (${ROLE_HINTS[r]})` })));
  role.value = "clock";
  const label = el("input", { id: `crew-label-${slug}`, name: "label", maxlength: "40", autocomplete: "off", placeholder: t("lobby.labelPlaceholder"), "data-crew-label": id });
  const error = el("p", { class: "form-error", role: "alert", "data-crew-error": id, hidden: true });
  const list = el("ul", { class: "crew-list", "data-crew-list": id });
  const result = el("div", { class: "crew-link", "data-crew-link": id, hidden: true, tabindex: "-1" });
  const submit = el("button", { type: "submit", class: "primary", "data-crew-add": id, text: t("lobby.addMember") });

  const showError = (text) => {
    error.textContent = text;
    error.hidden = !text;
  };

  async function call(method, path, body) {
    const token = adminToken(tokenField);
    if (!token) throw new Error(t("lobby.needToken"));
    sessionStorage.setItem(ADMIN_TOKEN_KEY, token);
    const response = await fetch(path, {
      method,
      headers: { Authorization: `Bearer ${token}`, ...(body ? { "Content-Type": "application/json" } : {}) },
      body: body ? JSON.stringify(body) : undefined,
      cache: "no-store",
    }).catch(() => {
      throw new Error(t("error.unreachable"));
    });
    const answer = await response.json().catch(() => null);
    if (response.status === 401 || response.status === 403) throw new Error(t("lobby.tokenRefused"));
    if (!response.ok) throw new Error(Object.values(fieldErrorsInWords(answer))[0] ?? answerInWords(answer, response.status));
    return answer;
  }

  async function refresh() {
    try {
      const answer = await call("GET", api);
      renderCrew(list, answer.members ?? [], {
        extra: (m) => el("button", { type: "button", class: "linklike", "data-revoke": m.member, "aria-label": t("lobby.revokeMember", { member: t("lobby.memberWho", { label: m.label, role: ROLE_WORDS[m.role] ?? m.role }) }), text: t("lobby.revoke"), onclick: () => revoke(m) }),
      });
      showError("");
    } catch (problem) {
      showError(problem.message);
    }
  }

  async function revoke(member) {
    try {
      await call("DELETE", `${api}/${encodeURIComponent(member.member)}`);
      await refresh();
    } catch (problem) {
      showError(problem.message);
    }
  }

  const form = el(
    "form",
    {
      class: "crew-form",
      novalidate: true,
      onsubmit: async (event) => {
        event.preventDefault();
        showError("");
        if (!label.value.trim()) {
          showError(t("lobby.needLabel"));
          label.focus();
          return;
        }
        submit.disabled = true;
        try {
          const answer = await call("POST", api, { role: role.value, label: label.value.trim() });
          showLink(result, id, answer);
          label.value = "";
          await refresh();
          result.focus();
        } catch (problem) {
          showError(problem.message);
        } finally {
          submit.disabled = false;
        }
      },
    },
    el("div", { class: "crew-admin" }, el("label", { for: tokenField.id, text: t("lobby.adminToken") }), tokenField),
    el("div", {}, el("label", { for: role.id, text: t("lobby.role") }), role),
    el("div", {}, el("label", { for: label.id, text: t("lobby.label") }), label),
    submit,
  );

  // Opened: the members as they are now, once the admin token is known (asked for first otherwise).
  const opened = () => {
    if (!box.open) return;
    if (adminToken(tokenField)) refresh();
    else tokenField.focus();
  };
  const box = el("details", { class: "crew-box", "data-crew": id, ontoggle: opened }, el("summary", { text: t("crew.title") }), form, error, result, list);
  return box;
}

/** The new member's link, once: the QR code to scan and the text to copy. */
function showLink(node, gameID, answer) {
  const link = memberLink(gameID, answer.token);
  const who = t("lobby.memberWho", { label: answer.label, role: ROLE_WORDS[answer.role] ?? answer.role });
  let code;
  try {
    code = qrSVG(encodeQR(link, { ecl: "M" }), { label: t("lobby.memberQR", { member: who }) });
  } catch {
    code = el("p", { class: "hint", text: t("lobby.qrTooLong") });
  }
  const copy = el("button", { type: "button", class: "linklike", text: t("lobby.copyLink") });
  copy.addEventListener("click", async () => {
    try {
      await navigator.clipboard.writeText(link);
      copy.textContent = t("embed.copied");
    } catch {
      copy.textContent = t("embed.selectAndCopy");
    }
  });
  node.replaceChildren(
    el("p", { text: t("lobby.memberAdded", { member: who }) }),
    code,
    el("code", { "data-member-link": answer.member, text: link }),
    copy,
  );
  node.hidden = false;
}
