// The live page's part of the script (`napkin-inspect live --web`), after the
// report's: it listens to the inspector's Server-Sent Events ("events": a
// hello, the sessions in a meta, each session's latest snapshot as a trace,
// all three described in docs/report.md) and shows the chosen session with
// the report's own drawing.
//
// It follows the end: each snapshot of the session shown moves the moment to
// its end. Pause (the play button, space), a step back, the slider or a
// finding stops following, and the moment stays put while snapshots arrive;
// the follow button (or End) returns to the end. The banner (#live-status)
// says whether the page is connected, retrying, or reconnected to an
// inspector that restarted (its hello names another instance).
//
// The live page's script is the report's parts (ReportAssets.scriptParts),
// then this file, inside one function (ReportAssets.liveScript).
  const live = { instance: null, connected: false, following: true, shown: -1, notes: [] };

  function banner(text, tone) {
    const box = $("live-status");
    box.textContent = text;
    box.className = tone;
  }
  // The mode beside the player: live (following the end) or paused at a moment.
  function showMode() {
    $("play").textContent = live.following ? "pause" : "follow";
    $("play").title = live.following ? "Pause: keep this moment while snapshots arrive (space)" : "Follow the end again (space, End)";
    $("follow").hidden = live.following;
    $("live-mode").textContent = live.following ? "live" : T ? "paused at t=" + point(cur) : "paused";
    $("live-mode").className = live.following ? "live" : "paused";
  }
  function follow(on) {
    live.following = on;
    if (on && T) setTime(T.end);
    showMode();
  }
  hooks.moved = (toEnd) => follow(toEnd);
  hooks.play = () => follow(!live.following);
  $("follow").addEventListener("click", () => follow(true));

  // ---------- the messages ----------
  function hello(message) {
    const restarted = live.instance !== null && live.instance !== message.instance;
    live.instance = message.instance;
    live.connected = true;
    if (restarted) {
      traces.length = 0;
      live.shown = -1;
      meta = { version: meta.version, words: meta.words, traces: [] };
      fillPicker(0);
      showNothing("Waiting for a traced app…");
    }
    banner(restarted ? "reconnected to a restarted inspector: sessions start over" : "connected to napkin-inspect " + message.version,
           restarted ? "warn" : "good");
  }
  function sessions(message) {
    meta = message.meta;
    WORDS = meta.words;
    live.notes = message.sessions.map((s) => s.note);
    meta.traces.forEach((t, i) => { if (live.notes[i]) t.label += " (" + live.notes[i] + ")"; });
    fillPicker(live.shown < 0 ? 0 : live.shown);
  }
  function snapshot(message) {
    traces[message.index] = message.data;
    if (live.shown < 0) { live.shown = message.index; $("trace-picker").value = String(message.index); }
    if (message.index !== live.shown) return;
    load(live.shown, message.data, live.following ? undefined : cur);
    showMode();
  }
  function apply(message) {
    switch (message.kind) {
      case "hello": hello(message); break;
      case "meta": sessions(message); break;
      case "trace": snapshot(message); break;
      default: break; // a kind of a later inspector: nothing to show
    }
  }
  // Another session picked: its latest snapshot at its end, or a wait for its first.
  hooks.pick = (index) => {
    live.shown = index;
    if (traces[index]) load(index);
    else showNothing("Waiting for this session's first snapshot…");
    showMode();
  };

  // ---------- the connection ----------
  // EventSource reconnects on its own; when the browser gives up (CLOSED),
  // or cannot even start, a new one after 2 s.
  function connect() {
    let source;
    try {
      source = new EventSource("events");
    } catch (error) {
      banner("cannot connect to the inspector (" + error.message + "): retrying in 2 s…", "bad");
      setTimeout(connect, 2000);
      return;
    }
    source.onmessage = (event) => {
      let message;
      try { message = JSON.parse(event.data); } catch (error) { banner("a message the page cannot read: " + clip(String(event.data), 80), "bad"); return; }
      apply(message);
    };
    source.onerror = () => {
      const closed = source.readyState === EventSource.CLOSED;
      banner((live.connected ? "disconnected" : "cannot connect to the inspector") + ": retrying…", "bad");
      live.connected = false;
      if (closed) { source.close(); setTimeout(connect, 2000); }
    };
  }

  showNothing("Waiting for a traced app…");
  showMode();
  banner("connecting…", "warn");
  connect();
