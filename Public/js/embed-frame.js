// embed.html: the <courtside-score> element for an iframe. Its attributes come from the address
// (?id= or ?court=, theme, size, delay, lang), and it tells the page around it how tall it is, so that page can
// size the iframe: {"type":"courtside:resize","height":N} whenever the height changes (README, "Embed").
const params = new URLSearchParams(location.search);
const board = document.getElementById("board");
const id = params.get("id") ?? params.get("game");
if (id) board.setAttribute("game", id);
for (const name of ["court", "theme", "size", "delay", "lang"]) {
  const value = params.get(name);
  if (value !== null) board.setAttribute(name, value);
}

let posted = -1;
function postHeight() {
  const height = Math.ceil(document.documentElement.getBoundingClientRect().height);
  if (height === posted || window.parent === window) return;
  posted = height;
  // The height is no secret, and the embedding page's origin is not known here: any parent may read it.
  window.parent.postMessage({ type: "courtside:resize", height }, "*");
}
new ResizeObserver(postHeight).observe(document.documentElement);
postHeight();
