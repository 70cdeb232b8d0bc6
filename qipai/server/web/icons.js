// Icons as inline SVG (never emoji or symbol characters, which a machine without the right
// font shows as boxes). icon(name, label) returns an <svg> drawn in currentColor, 1em high;
// with a label it is an image with that accessible name, else it is hidden from screen readers
// (the button or text beside it says what it is).

const PATHS = {
  first: "M5 4h2v16H5zM19 4v16L8 12z",
  prev: "M17 4v16L6 12z",
  next: "M7 4v16l11-8z",
  last: "M17 4h2v16h-2zM5 4v16l11-8z",
  star: "M12 2.5l2.9 6.1 6.6.8-4.9 4.6 1.3 6.6L12 17.3l-5.9 3.3 1.3-6.6-4.9-4.6 6.6-.8z",
  crown: "M3 7l4.5 4L12 4l4.5 7L21 7l-2 11H5zM5 19.5h14V21H5z",
  trophy: "M7 3h10v2h3v3a4 4 0 0 1-4 4h-.4A5 5 0 0 1 13 14.9V18h3v3H8v-3h3v-3.1A5 5 0 0 1 8.4 12H8a4 4 0 0 1-4-4V5h3zm0 4H6v1a2 2 0 0 0 1 1.7zm10 0v2.7A2 2 0 0 0 18 8V7z",
  soundOn: "M4 9h4l5-4v14l-5-4H4zM16 8.5a4.5 4.5 0 0 1 0 7l-1.1-1.3a2.8 2.8 0 0 0 0-4.4zM18.3 5.6a8 8 0 0 1 0 12.8l-1.1-1.3a6.3 6.3 0 0 0 0-10.2z",
  block: "M12 2a10 10 0 1 0 0 20 10 10 0 0 0 0-20zm0 2.5a7.5 7.5 0 0 1 5.9 12.1L7.4 6.1A7.5 7.5 0 0 1 12 4.5zM6.1 7.4l10.5 10.5A7.5 7.5 0 0 1 6.1 7.4z",
  soundOff: "M4 9h4l5-4v14l-5-4H4zM16.3 9.3l1.4-1.4 2.1 2.1 2.1-2.1 1.4 1.4-2.1 2.1 2.1 2.1-1.4 1.4-2.1-2.1-2.1 2.1-1.4-1.4 2.1-2.1z",
  moon: "M20 14.5A8.5 8.5 0 0 1 9.5 4a8.5 8.5 0 1 0 10.5 10.5z",
  sun: "M12 7a5 5 0 1 1 0 10 5 5 0 0 1 0-10zM11 1h2v3h-2zm0 19h2v3h-2zM1 11h3v2H1zm19 0h3v2h-3zM4.2 5.6l1.4-1.4 2.1 2.1-1.4 1.4zm12.1 12.1 1.4-1.4 2.1 2.1-1.4 1.4zM4.2 18.4l2.1-2.1 1.4 1.4-2.1 2.1zM16.3 6.3l2.1-2.1 1.4 1.4-2.1 2.1z",
  auto: "M12 2a10 10 0 1 0 0 20 10 10 0 0 0 0-20zm0 2a8 8 0 0 1 0 16z",
  send: "M2 21l21-9L2 3v7l15 2-15 2z",
  chat: "M4 4h16a2 2 0 0 1 2 2v10a2 2 0 0 1-2 2H9l-5 4v-4a2 2 0 0 1-2-2V6a2 2 0 0 1 2-2z",
  rematch: "M17.6 6.4A8 8 0 1 0 20 12h-2a6 6 0 1 1-1.8-4.2L13 11h8V3z",
  flag: "M5 2h2v20H5zM8 3h11l-2.5 4.5L19 12H8z",
  handshake: "M2 12l4-5h4l2 2 2-2h4l4 5-3 3-1-1-5 5-2-2-2 2-3-3-2 2z",
  menu: "M3 5h18v2.5H3zm0 5.75h18v2.5H3zM3 16.5h18V19H3z",
  print: "M6 2h12v5H6zM4 8h16a2 2 0 0 1 2 2v7h-4v5H6v-5H2v-7a2 2 0 0 1 2-2zm4 8v4h8v-4z",
};

const NS = "http://www.w3.org/2000/svg";

/** An inline SVG icon (`name` of PATHS); `label` makes it an image with that name. */
export function icon(name, label) {
  const svg = document.createElementNS(NS, "svg");
  svg.setAttribute("viewBox", "0 0 24 24");
  svg.setAttribute("class", `icon icon-${name}`);
  svg.setAttribute("fill", "currentColor");
  if (label) {
    svg.setAttribute("role", "img");
    svg.setAttribute("aria-label", label);
    const title = document.createElementNS(NS, "title");
    title.textContent = label;
    svg.append(title);
  } else {
    svg.setAttribute("aria-hidden", "true");
    svg.setAttribute("focusable", "false");
  }
  const path = document.createElementNS(NS, "path");
  path.setAttribute("d", PATHS[name] || PATHS.star);
  path.setAttribute("fill-rule", "evenodd");
  svg.append(path);
  return svg;
}

export const ICONS = Object.keys(PATHS);
