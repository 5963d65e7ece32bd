/** True when the page runs inside a frame (a cross-origin parent makes reading `top` throw). */
export function isInIframe(win: Window = window): boolean {
  try {
    return win.self !== win.top;
  } catch {
    return true;
  }
}
