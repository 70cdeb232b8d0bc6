// A page part's own stylesheet (/static/NAME.css: the referee tools'), added to the page the
// first time the part is shown. (The boards' sheets are in the page's head, index.html: a
// board is never drawn before its sheet is in use.)

/** Add /static/`name`.css to the page once. */
export function styleSheet(name) {
  const id = `${name}-css`;
  if (document.getElementById(id)) return;
  document.head.append(Object.assign(document.createElement("link"), { id, rel: "stylesheet", href: `/static/${name}.css` }));
}
