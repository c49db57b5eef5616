"use strict";
// Courier's apps in one page. Everything the network sends is shown with textContent, and
// links only when they are http(s): nothing from a service becomes markup, except a feed
// entry's content, which the app sanitizes and this page shows inert (see contentReader).

const token = document.querySelector("meta[name=courier-token]").content;
const pageID = crypto.randomUUID();

// ---------------------------------------------------------------- helpers

function $(id) { return document.getElementById(id); }

function element(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined && text !== null) node.textContent = String(text);
  return node;
}

function textBlock(primary, secondary) {
  const block = element("div", "text");
  block.append(element("span", "primary", primary));
  if (secondary) block.append(element("span", "secondary", secondary));
  return block;
}

// A link to an http(s) address from the network, opened without telling it where from.
function link(href, text) {
  let url;
  try { url = new URL(href); } catch { return element("span", null, text); }
  if (url.protocol !== "https:" && url.protocol !== "http:") return element("span", null, text);
  const anchor = element("a", null, text);
  anchor.href = url.href;
  anchor.rel = "noopener noreferrer";
  anchor.target = "_blank";
  return anchor;
}

function say(statusID, text, isError = false) {
  const status = $(statusID);
  status.textContent = text;
  status.classList.toggle("error", isError);
}

function plural(count, one, many) { return `${count.toLocaleString()} ${count === 1 ? one : many}`; }

// fetch with the run's token; a problem document becomes an Error with its detail.
async function api(path, options = {}) {
  const headers = { "X-Courier-Token": token, Accept: "application/json", ...(options.headers ?? {}) };
  if (options.json !== undefined) {
    headers["Content-Type"] = "application/json";
    options = { ...options, body: JSON.stringify(options.json) };
  }
  const response = await fetch(path, { ...options, headers });
  if (!response.ok && response.status !== 304) {
    const problem = await response.json().catch(() => null);
    const error = new Error(problem?.detail ?? `The app answered ${response.status}.`);
    error.status = response.status;
    error.retryAfter = response.headers.get("Retry-After");
    throw error;
  }
  return response;
}

// Reads a JSON Lines response, calling `onLine` with each line as it arrives.
async function readLines(response, onLine) {
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let buffered = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buffered += decoder.decode(value, { stream: true });
    let newline;
    while ((newline = buffered.indexOf("\n")) >= 0) {
      const line = buffered.slice(0, newline);
      buffered = buffered.slice(newline + 1);
      if (line.trim()) onLine(JSON.parse(line));
    }
  }
  if (buffered.trim()) onLine(JSON.parse(buffered));
}

function networkMessage(error) {
  return error instanceof TypeError ? "The app is not answering: is it still running?" : error.message;
}

// ---------------------------------------------------------------- tabs

const tabs = [...document.querySelectorAll("[role=tab]")];
const activators = {};

function selectTab(tab, focus = false) {
  for (const other of tabs) {
    const selected = other === tab;
    other.setAttribute("aria-selected", String(selected));
    other.tabIndex = selected ? 0 : -1;
    $(other.getAttribute("aria-controls")).hidden = !selected;
  }
  if (focus) tab.focus();
  const name = tab.getAttribute("aria-controls");
  if (location.hash !== `#${name}`) history.replaceState(null, "", `#${name}`);
  activators[name]?.();
}

for (const [index, tab] of tabs.entries()) {
  tab.addEventListener("click", () => selectTab(tab));
  tab.addEventListener("keydown", (event) => {
    const moves = { ArrowRight: 1, ArrowLeft: -1, Home: -index, End: tabs.length - 1 - index };
    if (!(event.key in moves)) return;
    event.preventDefault();
    selectTab(tabs[(index + moves[event.key] + tabs.length) % tabs.length], true);
  });
}

// ---------------------------------------------------------------- Libraries (seed 000)

const libraryKinds = {
  locations: {
    path: "/api/library/locations", parameter: "country", label: "Country", placeholder: "France, cote, united…",
    noun: ["library", "libraries"],
    render(location) {
      return [element("span", "flag", location.emoji),
        textBlock(location.street_address, `${location.city}, ${location.country} · ${location.hours}`)];
    },
  },
  books: {
    path: "/api/library/catalog", parameter: "q", label: "Title", placeholder: "The great, war, étr…",
    noun: ["book", "books"],
    render(book) {
      const year = typeof book.year !== "number" ? "" : book.year < 0 ? `${-book.year} BC` : String(book.year);
      return [textBlock(book.title, book.author ?? ""), element("span", "aside", year)];
    },
  },
};
const library = { kind: "locations", shown: 0, request: null, started: false };

async function searchLibrary(append) {
  const { path, parameter, noun, render } = libraryKinds[library.kind];
  const text = $("library-query").value;
  library.request?.abort();
  const controller = new AbortController();
  library.request = controller;
  const offset = append ? library.shown : 0;
  if (!append) say("library-status", "Searching…");
  try {
    const response = await api(`${path}?${parameter}=${encodeURIComponent(text)}&offset=${offset}`,
      { signal: controller.signal });
    const page = await response.json();
    if (!append) { $("library-results").replaceChildren(); library.shown = 0; }
    for (const item of page.items) {
      const row = element("li");
      row.append(...render(item));
      $("library-results").append(row);
    }
    library.shown += page.items.length;
    if (page.total === 0) {
      say("library-status", text.trim() ? `No ${noun[1]} start with “${text.trim()}”. Try fewer letters.` : `No ${noun[1]} yet.`);
    } else {
      const what = page.total === 1 ? noun[0] : noun[1];
      say("library-status", library.shown < page.total
        ? `Showing ${library.shown} of ${page.total.toLocaleString()} ${what}.` : `${plural(page.total, noun[0], noun[1])}.`);
    }
    $("library-more").hidden = library.shown >= page.total;
  } catch (error) {
    if (error.name === "AbortError") return;
    say("library-status", networkMessage(error), true);
  } finally {
    if (library.request === controller) library.request = null;
  }
}

for (const radio of document.querySelectorAll("input[name=library-kind]")) {
  radio.addEventListener("change", () => {
    library.kind = radio.value;
    const { label, placeholder } = libraryKinds[library.kind];
    $("library-label").textContent = label;
    $("library-query").placeholder = placeholder;
    $("library-query").value = "";
    searchLibrary(false);
  });
}
$("library-query").addEventListener("input", () => searchLibrary(false));
$("library-form").addEventListener("submit", (event) => { event.preventDefault(); searchLibrary(false); });
$("library-more").addEventListener("click", () => searchLibrary(true));
activators.libraries = () => {
  if (!library.started) { library.started = true; searchLibrary(false); }
  $("library-query").focus();
};

// ---------------------------------------------------------------- Store and artwork (seed 002)

// A search starts when the typing pauses (250 ms), or at once on Enter or a change of category,
// and supersedes the search in flight: this page aborts its request (the app then cancels the
// store's), and an answer is shown only if it belongs to the newest search. When the store asks
// for a pause (the app's 429 and its Retry-After), nothing is sent until the pause ends: the
// status line says so, and the newest text is searched then.
const store = { generation: 0, request: null, artwork: new Map(), typing: null, pausedUntil: 0, resume: null };
const typingPause = 250;
const money = new Map();

function price(result) {
  if (result.price === null || result.price === undefined) return "";
  if (Number(result.price) === 0) return "Free";
  const currency = result.currency ?? "USD";
  if (!money.has(currency)) {
    try { money.set(currency, new Intl.NumberFormat(undefined, { style: "currency", currency })); }
    catch { money.set(currency, null); }
  }
  const format = money.get(currency);
  return format ? format.format(Number(result.price)) : `${result.price} ${currency}`;
}

// Artwork loads when its row comes near the screen and stops when it leaves before arriving.
const artworkObserver = new IntersectionObserver((entries) => {
  for (const entry of entries) {
    if (entry.isIntersecting) loadArtwork(entry.target);
    else store.artwork.get(entry.target)?.abort();
  }
}, { rootMargin: "200px 0px" });

async function loadArtwork(image) {
  if (image.dataset.state === "loaded" || store.artwork.has(image)) return;
  const controller = new AbortController();
  store.artwork.set(image, controller);
  try {
    const response = await fetch(image.dataset.src, { signal: controller.signal, headers: { "X-Courier-Token": token } });
    if (response.status === 204) return;
    if (!response.ok) { image.dataset.state = "failed"; return; }
    const blob = await response.blob();
    image.src = URL.createObjectURL(blob);
    image.dataset.state = "loaded";
    image.addEventListener("load", () => URL.revokeObjectURL(image.src), { once: true });
    artworkObserver.unobserve(image);
  } catch (error) {
    if (error.name !== "AbortError") image.dataset.state = "failed";
  } finally {
    store.artwork.delete(image);
  }
}

// Stops every artwork download of the rows shown: a new search makes them stale.
function abortArtwork() {
  for (const controller of store.artwork.values()) controller.abort();
  store.artwork.clear();
  artworkObserver.disconnect();
}

function clearStoreResults() {
  abortArtwork();
  $("store-results").replaceChildren();
}

// The pause the store asked for: `seconds` from the app's Retry-After (10 when it gives none).
function pauseStore(seconds) {
  const wait = Number.isFinite(seconds) && seconds > 0 ? Math.min(seconds, 600) : 10;
  store.pausedUntil = Date.now() + wait * 1000;
  clearTimeout(store.resume);
  store.resume = setTimeout(() => { store.pausedUntil = 0; store.resume = null; searchStore(); }, wait * 1000);
  sayPaused();
}

function sayPaused() {
  const seconds = Math.max(1, Math.ceil((store.pausedUntil - Date.now()) / 1000));
  say("store-status", `The store asks for a pause in searches: searching again in ${seconds} s.`);
}

function searchStoreSoon() {
  clearTimeout(store.typing);
  store.typing = setTimeout(searchStore, typingPause);
}

async function searchStore() {
  clearTimeout(store.typing);  // a search now makes a pending one needless
  store.typing = null;
  const term = $("store-query").value.trim();
  const category = document.querySelector("input[name=store-category]:checked").value;
  if (term && store.pausedUntil > Date.now()) { sayPaused(); return; }  // searched when the pause ends
  const generation = ++store.generation;
  store.request?.abort();
  abortArtwork();
  const controller = new AbortController();
  store.request = controller;
  if (!term) {
    clearStoreResults();
    say("store-status", "Type to search the store.");
    return;
  }
  say("store-status", "Searching…");
  try {
    const locale = encodeURIComponent(navigator.language ?? "");
    const query = `term=${encodeURIComponent(term)}&category=${category}&page=${pageID}&seq=${generation}&locale=${locale}`;
    const response = await api(`/api/store/search?${query}`, { signal: controller.signal });
    if (response.status === 204 || generation !== store.generation) return;  // superseded
    const found = await response.json();
    if (generation !== store.generation) return;
    clearStoreResults();
    for (const result of found.results) {
      const row = element("li");
      const image = element("img", "artwork");
      image.alt = "";
      image.width = 60;
      image.height = 60;
      if (result.artwork) {
        image.dataset.src = result.artwork;
        artworkObserver.observe(image);
      }
      const text = textBlock(result.name, result.subtitle);
      if (result.store_url) {
        const where = element("span", "secondary");
        where.append(link(result.store_url, "View in store"));
        text.append(where);
      }
      const aside = element("span", "aside");
      aside.append(element("span", "primary", price(result)), element("span", "secondary", result.genre ?? ""));
      row.append(image, text, aside);
      $("store-results").append(row);
    }
    const skipped = found.skipped > 0 ? ` ${plural(found.skipped, "item", "items")} without a name not shown.` : "";
    say("store-status", found.results.length === 0
      ? `Nothing found for “${term}”.${skipped}` : `${plural(found.results.length, "result", "results")}.${skipped}`);
  } catch (error) {
    if (error.name === "AbortError" || generation !== store.generation) return;
    if (error.status === 429) { pauseStore(Number.parseInt(error.retryAfter ?? "", 10)); return; }
    clearStoreResults();
    say("store-status", networkMessage(error), true);
  } finally {
    if (store.request === controller) store.request = null;
  }
}

$("store-query").addEventListener("input", searchStoreSoon);
for (const radio of document.querySelectorAll("input[name=store-category]")) {
  radio.addEventListener("change", searchStore);
}
$("store-form").addEventListener("submit", (event) => { event.preventDefault(); searchStore(); });
activators.store = () => {
  if (!$("store-status").textContent) say("store-status", "Type to search the store.");
  $("store-query").focus();
};

// ---------------------------------------------------------------- Movies (seeds 001/004)

const movies = { member: null, events: null, watching: null, page: 1, totalPages: 1, started: false };

function ratingCell(favorite) {
  if (favorite.rating === "rated") return element("span", "aside", `popularity ${favorite.popularity.toFixed(1)}`);
  if (favorite.rating === "failed") return element("span", "aside failed", "not rated");
  return element("span", "aside pending", "pending");
}

function renderFavorites(favorites) {
  const list = $("favorites");
  list.replaceChildren();
  for (const favorite of favorites) {
    const row = element("li");
    row.dataset.title = favorite.title;
    const remove = element("button", "remove", "Remove");
    remove.type = "button";
    remove.setAttribute("aria-label", `Remove ${favorite.title}`);
    remove.addEventListener("click", () => removeFavorite(favorite.title));
    const text = textBlock(favorite.title);
    if (favorite.rating === "failed") text.append(element("span", "secondary failed", favorite.error));
    row.append(text, ratingCell(favorite), remove);
    list.append(row);
  }
  const pending = favorites.filter((favorite) => favorite.rating === "pending").length;
  say("movies-status", favorites.length === 0 ? `${movies.member} has no favourites yet.`
    : `${plural(favorites.length, "favourite", "favourites")}${pending ? `, ${pending} waiting for TMDB` : ""}.`);
}

// The member's favourites arrive from the app now and after every change to the database,
// made on this page, on another or by `courier movies add` in a terminal.
function watchFavorites() {
  movies.events?.close();
  movies.events = null;
  movies.watching = movies.member;
  if (!movies.member) return;
  const events = new EventSource(`/api/movies/events?member=${encodeURIComponent(movies.member)}`);
  movies.events = events;
  events.addEventListener("favorites", (event) => renderFavorites(JSON.parse(event.data)));
  events.addEventListener("failure", (event) => {
    say("movies-status", JSON.parse(event.data).message, true);
    events.close();
    if (movies.events === events) movies.events = null;
  });
}

async function loadMembers() {
  try {
    const members = await (await api("/api/family")).json();
    const list = $("members");
    list.replaceChildren();
    if (!members.some((member) => member.name === movies.member)) movies.member = members[0]?.name ?? null;
    for (const member of members) {
      const row = element("li");
      const choose = element("button", "member", `${member.name} (${member.favorite_count})`);
      choose.type = "button";
      choose.setAttribute("aria-pressed", String(member.name === movies.member));
      choose.addEventListener("click", () => { movies.member = member.name; loadMembers(); });
      const remove = element("button", "remove", "Remove");
      remove.type = "button";
      remove.setAttribute("aria-label", `Remove ${member.name}`);
      remove.addEventListener("click", () => removeMember(member.name));
      row.append(choose, remove);
      list.append(row);
    }
    const ready = movies.member !== null;
    $("favorite-title").disabled = !ready;
    $("favorite-add").disabled = !ready;
    $("refresh").disabled = !ready;
    $("favorites-heading").textContent = ready ? `${movies.member}'s favourites` : "Favourites";
    if (!ready) {
      $("favorites").replaceChildren();
      say("movies-status", "Add a family member to keep favourites.");
    }
    if (movies.watching !== movies.member || (movies.member !== null && movies.events === null)) watchFavorites();
  } catch (error) {
    say("movies-status", networkMessage(error), true);
  }
}

async function removeMember(name) {
  try {
    await api(`/api/family?name=${encodeURIComponent(name)}`, { method: "DELETE" });
    if (movies.member === name) movies.member = null;
    await loadMembers();
  } catch (error) { say("movies-status", networkMessage(error), true); }
}

async function addFavorite(title) {
  if (!movies.member) return;
  try {
    await api("/api/movies/favorites", { method: "POST", json: { member: movies.member, title } });
    loadMembers();
  } catch (error) { say("movies-status", networkMessage(error), true); }
}

async function removeFavorite(title) {
  try {
    await api(`/api/movies/favorites?member=${encodeURIComponent(movies.member)}&title=${encodeURIComponent(title)}`,
      { method: "DELETE" });
    loadMembers();
  } catch (error) { say("movies-status", networkMessage(error), true); }
}

async function refreshRatings() {
  const progress = $("refresh-progress");
  progress.hidden = false;
  progress.value = 0;
  $("refresh").disabled = true;
  say("movies-status", "Asking TMDB…");
  try {
    const response = await api("/api/movies/refresh", { method: "POST" });
    await readLines(response, (line) => {
      if (line.done !== undefined) {
        progress.max = Math.max(1, line.total);
        progress.value = line.done;
        say("movies-status", `Rated ${line.done} of ${line.total}…`);
      } else if (line.rated !== undefined) {
        const failed = line.failed ? `, ${line.failed} not rated${line.error ? ` (${line.error})` : ""}` : "";
        say("movies-status", `${plural(line.total, "movie", "movies")} looked up: ${line.rated} rated${failed}.`, line.failed > 0);
      } else if (line.error) {
        say("movies-status", line.error, true);
      }
    });
  } catch (error) {
    say("movies-status", networkMessage(error), true);
  } finally {
    progress.hidden = true;
    $("refresh").disabled = movies.member === null;
  }
}

async function loadTopRated(page) {
  say("top-status", "Loading…");
  try {
    const chart = await (await api(`/api/movies/top-rated?page=${page}`)).json();
    movies.page = chart.page;
    movies.totalPages = chart.total_pages;
    const list = $("top-rated");
    list.replaceChildren();
    const first = (chart.page - 1) * 20;
    for (const [index, movie] of chart.results.entries()) {
      const row = element("li");
      const add = element("button", "secondary-button", "Add to favourites");
      add.type = "button";
      add.setAttribute("aria-label", `Add ${movie.title} to favourites`);
      add.addEventListener("click", () => addFavorite(movie.title));
      row.append(element("span", "aside", `${first + index + 1}.`),
        textBlock(movie.title, `${movie.year ?? ""} · ★ ${movie.vote_average.toFixed(1)}`), add);
      list.append(row);
    }
    say("top-status", `Page ${chart.page} of ${chart.total_pages.toLocaleString()}.`);
  } catch (error) {
    say("top-status", networkMessage(error), true);
  }
  $("top-previous").disabled = movies.page <= 1;
  $("top-next").disabled = movies.page >= movies.totalPages;
}

$("member-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  const name = $("member-name").value.trim();
  if (!name) return;
  try {
    await api("/api/family", { method: "POST", json: { name } });
    $("member-name").value = "";
    movies.member = name;
    await loadMembers();
  } catch (error) { say("movies-status", networkMessage(error), true); }
});
$("favorite-form").addEventListener("submit", (event) => {
  event.preventDefault();
  const title = $("favorite-title").value.trim();
  if (!title) return;
  $("favorite-title").value = "";
  addFavorite(title);
});
$("refresh").addEventListener("click", refreshRatings);
$("top-previous").addEventListener("click", () => loadTopRated(movies.page - 1));
$("top-next").addEventListener("click", () => loadTopRated(movies.page + 1));
activators.movies = () => {
  if (movies.started) return;
  movies.started = true;
  loadMembers();
  loadTopRated(1);
};

// ---------------------------------------------------------------- Feed and refs (seed 003)

// Reads a JSON Lines answer into the list `listID`, each line as it arrives; a new read of
// the same list aborts the one in flight. `onLine(line, list)` renders a line.
const streams = new Map();

async function streamInto(listID, statusID, path, starting, onLine) {
  streams.get(listID)?.abort();
  const controller = new AbortController();
  streams.set(listID, controller);
  const list = $(listID);
  list.replaceChildren();
  say(statusID, starting);
  try {
    const response = await api(path, { signal: controller.signal });
    await readLines(response, (line) => onLine(line, list));
  } catch (error) {
    if (error.name !== "AbortError") say(statusID, networkMessage(error), true);
  }
}

// An entry's content, shown when asked for. The app sends it sanitized (an allow-list, links
// absolute, nothing that runs); it is parsed into an inert document, its pictures are left
// unloaded, and the page's policy runs no inline script in any case.
function contentReader(html) {
  const details = element("details", "content");
  details.append(element("summary", null, "Read"));
  details.addEventListener("toggle", () => {
    if (!details.open || details.dataset.shown) return;
    details.dataset.shown = "yes";
    const body = element("div", "content-body");
    const parsed = new DOMParser().parseFromString(html, "text/html");
    // Nothing loads while the nodes are still inert: no picture or media source, which could
    // name this app's own API, and links open elsewhere.
    for (const media of parsed.body.querySelectorAll("[src], [poster], [srcset]")) {
      for (const name of ["src", "poster", "srcset"]) media.removeAttribute(name);
    }
    for (const anchor of parsed.body.querySelectorAll("a[href]")) {
      anchor.target = "_blank";
      anchor.rel = "noopener noreferrer nofollow";
    }
    while (parsed.body.firstChild) body.append(parsed.body.firstChild);
    details.append(body);
  });
  return details;
}

function readFeed(query) {
  let count = 0;
  streamInto("feed-entries", "feed-status", `/api/feed?${query}`, "Reading…", (line, list) => {
    if (line.entry) {
      const entry = line.entry;
      const row = element("li");
      const text = element("div", "text");
      const title = element("span", "primary");
      title.append(entry.link ? link(entry.link, entry.title ?? entry.link) : document.createTextNode(entry.title ?? "(untitled)"));
      text.append(title);
      if (entry.summary) text.append(element("span", "summary", entry.summary));
      if (entry.content_html) text.append(contentReader(entry.content_html));
      const date = entry.date ? new Date(entry.date).toLocaleDateString() : "";
      row.append(text, element("span", "aside", date));
      list.append(row);
      count += 1;
      say("feed-status", `Reading… ${plural(count, "entry", "entries")}`);
    } else if (line.feed) {
      const from = line.feed.title ? ` from ${line.feed.title}` : "";
      const problem = line.feed.problem ? ` (read leniently: ${line.feed.problem})` : "";
      say("feed-status", `${plural(count, "entry", "entries")}${from}.${problem}`);
    } else if (line.error) {
      say("feed-status", count ? `${plural(count, "entry", "entries")}, then: ${line.error}` : line.error, true);
    }
  });
}

$("feed-form").addEventListener("submit", (event) => {
  event.preventDefault();
  const url = $("feed-url").value.trim();
  if (url) readFeed(`url=${encodeURIComponent(url)}`);
});
$("feed-example").addEventListener("click", () => readFeed("example"));
activators.feed = () => $("feed-url").focus();

function listRefs(query) {
  let count = 0;
  streamInto("refs-list", "refs-status", `/api/refs?${query}`, "Connecting…", (line, list) => {
    if (line.ref) {
      const row = element("li");
      row.append(element("span", "mono", line.ref.object_id.slice(0, 12)), textBlock(line.ref.name));
      row.firstChild.title = line.ref.object_id;
      list.append(row);
      count += 1;
      say("refs-status", `Receiving… ${plural(count, "ref", "refs")}`);
    } else if (line.done) {
      say("refs-status", `${plural(count, "ref", "refs")}.${line.head ? ` HEAD → ${line.head}` : ""}`);
    } else if (line.error) {
      say("refs-status", line.error, true);
    }
  });
}

$("refs-form").addEventListener("submit", (event) => {
  event.preventDefault();
  const url = $("refs-url").value.trim();
  if (url) listRefs(`url=${encodeURIComponent(url)}`);
});
$("refs-example").addEventListener("click", () => listRefs("example"));
activators.refs = () => $("refs-url").focus();

// ---------------------------------------------------------------- start

api("/api/about").then((response) => response.json()).then((about) => {
  $("notes").textContent = about.notes.join(" ");
}).catch(() => {});
function tabForHash() {
  return tabs.find((tab) => `#${tab.getAttribute("aria-controls")}` === location.hash) ?? tabs[0];
}
window.addEventListener("hashchange", () => selectTab(tabForHash()));
selectTab(tabForHash());
