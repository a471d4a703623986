// The pickup queue's phone page (join.html?court=ID): a team types the code shown on the court's display, its name
// and its three players, and joins the queue. The server checks everything (docs/protocol.md, "Courts"); this page
// only shows its answers beside the fields.
import { param } from "./ui.js";
import { formatNumber, t, translate } from "./i18n.js";
import { answerInWords, fieldErrorsInWords } from "./error-words.js";

translate();

const courtID = param("court");
const form = document.getElementById("join-form");
const formError = document.getElementById("form-error");
const joined = document.getElementById("joined");

function showErrors(answer) {
  const fields = fieldErrorsInWords(answer);
  for (const node of form.querySelectorAll("[data-error-for]")) node.textContent = fields[node.dataset.errorFor] ?? "";
  const fieldsShown = answer?.fields && Object.keys(answer.fields).some((name) => form.querySelector(`[data-error-for="${CSS.escape(name)}"]`));
  formError.hidden = !answer || fieldsShown;
  formError.textContent = answer ? answerInWords(answer, null, "") : "";
}

async function loadCourt() {
  const response = await fetch(`/api/courts/${encodeURIComponent(courtID)}`);
  if (!response.ok) {
    showErrors({ message: t("join.noCourt", { court: courtID }) });
    form.hidden = true;
    return;
  }
  const court = await response.json();
  const title = document.getElementById("court-title");
  title.textContent = court.name;
  delete title.dataset.i18n; // a name now, not a word of the catalog
  document.getElementById("queue-words").textContent =
    court.queue.length === 0 ? t("join.nobody") : t(court.queue.length === 1 ? "join.waitingOne" : "join.waiting", { n: formatNumber(court.queue.length) });
  if (court.joining === "admin") {
    form.hidden = true;
    joined.hidden = false;
    joined.textContent = t("error.joiningByAdmin");
  }
}

form.addEventListener("submit", async (event) => {
  event.preventDefault();
  showErrors(null);
  const value = (id) => document.getElementById(id).value;
  const body = { code: value("code").trim(), name: value("name"), players: [value("player0"), value("player1"), value("player2")] };
  const button = document.getElementById("join-button");
  button.disabled = true;
  try {
    const response = await fetch(`/api/courts/${encodeURIComponent(courtID)}/queue`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body),
    });
    const answer = await response.json().catch(() => null);
    if (!response.ok) {
      showErrors(answer ?? { message: t("error.status", { status: response.status }) });
      return;
    }
    const place = answer.queue.length;
    form.hidden = true;
    joined.hidden = false;
    joined.textContent = t("join.joined", { team: body.name.trim(), n: formatNumber(place) });
  } catch {
    showErrors({ message: t("join.offline") });
  } finally {
    button.disabled = false;
  }
});

if (courtID) loadCourt();
else showErrors({ message: t("join.addCourt") });
