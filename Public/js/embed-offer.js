// The spectator page's "Embed" box: the snippets another site pastes to show this game (or court) live. (The oEmbed
// discovery link is in the markup: the server writes it into the page for its game, CourtsideRouter.spectatorPage.)
import { param } from "./ui.js";
import { t } from "./i18n.js";

const server = location.origin;
const id = param("id");
const court = param("court");
const box = document.getElementById("embed");

/** The element's attribute and the iframe's query for what this page shows; null when it shows nothing. */
function target() {
  if (id) return { attribute: `game="${escapeHTML(id)}"`, query: `id=${encodeURIComponent(id)}` };
  if (court) return { attribute: `court="${escapeHTML(court)}"`, query: `court=${encodeURIComponent(court)}` };
  return null;
}

function escapeHTML(text) {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

const shown = target();
if (shown) {
  box.hidden = false;
  document.getElementById("embed-script").value = `<script src="${server}/embed.js" async></script>\n<courtside-score ${shown.attribute} size="compact" theme="light"></courtside-score>`;
  document.getElementById("embed-iframe").value =
    `<iframe src="${server}/embed.html?${shown.query}" width="480" height="140" style="border:0;max-width:100%" title="Courtside score" loading="lazy"></iframe>\n` +
    `<script>addEventListener("message", (e) => { if (e.origin === "${server}" && e.data?.type === "courtside:resize") for (const f of document.querySelectorAll('iframe[src^="${server}/embed.html"]')) if (f.contentWindow === e.source) f.height = e.data.height; });</script>`;
  for (const button of box.querySelectorAll("[data-copy]")) {
    button.addEventListener("click", async () => {
      const field = document.getElementById(button.dataset.copy);
      field.select();
      try {
        await navigator.clipboard.writeText(field.value);
        button.textContent = t("embed.copied");
      } catch {
        button.textContent = t("embed.selectAndCopy");
      }
    });
  }
  if (location.hash === "#embed") box.open = true;
}
