// A page part's own stylesheet (/static/NAME.css: a board's, the referee tools'), added to the
// page the first time the part is shown. While it loads, the part's root element is kept
// hidden (its place kept), so nobody sees the part unstyled for a moment.

/** Add /static/`name`.css to the page once; `root` (optional) stays hidden until it loads. */
export function styleSheet(name, root) {
  const id = `${name}-css`;
  let link = document.getElementById(id);
  if (!link) {
    link = Object.assign(document.createElement("link"), { id, rel: "stylesheet", href: `/static/${name}.css` });
    link.dataset.loading = "1";
    const loaded = () => { delete link.dataset.loading; };
    link.addEventListener("load", loaded, { once: true });
    link.addEventListener("error", loaded, { once: true });     // unstyled beats invisible
    document.head.append(link);
  }
  if (root && link.dataset.loading) {
    root.style.visibility = "hidden";
    const show = () => { root.style.visibility = ""; };
    link.addEventListener("load", show, { once: true });
    link.addEventListener("error", show, { once: true });
  }
}
