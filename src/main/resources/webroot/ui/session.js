// One sign-in's lifetime. Sign-out ends it: its timers stop, and an answer to a call made before is dropped, so
// nothing of a workspace shows after its sign-out.
import { api, show } from './dom.js';

let number = 0;
let timers = [];
let keyRefused = () => {};

/** A check, made when a call is made, that its answer still belongs to the sign-in under way. */
export function sameSignIn() {
  const asked = number;
  return () => asked === number;
}

/** setInterval, stopped at sign-out. */
export function repeat(task, ms) {
  const timer = setInterval(task, ms);
  timers.push(timer);
  return timer;
}

export function endSignIn() {
  timers.forEach(clearInterval);
  timers = [];
  number++;
}

/** Set by the shell, which signs out: the views report a refused key here rather than import the shell above them. */
export function whenKeyRefused(handler) {
  keyRefused = handler;
}

/**
 * What a GET answers, for the sign-in under way: null when the call failed (the failure shown at where, if given) or
 * the workspace was signed out meanwhile.
 */
export async function read(path, where) {
  const current = sameSignIn();
  try {
    const data = await api('GET', path);
    return current() ? data : null;
  } catch (error) {
    if (current()) failed(error, where);
    return null;
  }
}

/** A failed call: a key no longer accepted signs out; anything else is shown where it happened. */
export function failed(error, where) {
  if (error.status === 401) {
    keyRefused();
    return;
  }
  if (where) {
    where.textContent = error.message;
    show(where, true);
  }
}
