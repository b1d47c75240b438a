"""Bots over the network (`tabletop bot`, tabletop.client.bot) against a real `tabletop serve` process: whole games of
each game between network bots and the server's AI, a bot's seat marked as a bot, refusals, and a silent bot played
for by the clock."""

from __future__ import annotations

import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from server.proc import Server
from tabletop.agents import make_agent
from tabletop.cli.main import main
from tabletop.client import ApiError, Client, Seat
from tabletop.client.bot import BotResult, RemoteSeat, run_bot
from tabletop.core import Action


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    tmp = tmp_path_factory.mktemp("bot-serve")
    env = {"TABLETOP_GAMES_PER_HOUR": "0", "TABLETOP_OPEN_GAMES": "0", "TABLETOP_AI_SEATS_PER_ADDRESS": "0",
           "TABLETOP_AI_ONLY_GAMES": "0"}
    s = Server(f"sqlite:///{tmp / 'bots.sqlite3'}", tmp / "serve.log", ai_workers=1, env=env).start()
    yield s
    s.stop()


def _bot_thread(url: str, link: str, spec: str, game: str, out: dict[int, BotResult]) -> threading.Thread:
    agent = make_agent(spec, game, seed=len(out))  # here: the registry's first load is not for two threads at once

    def go() -> None:
        with Client(url) as c:
            seat = c.claim_invite(link, name=f"{spec} (bot)")
            seat.mark_bot()
            assert seat.seat is not None
            out[seat.seat] = run_bot(seat, agent, say=lambda line: None, idle_timeout=120)

    t = threading.Thread(target=go, daemon=True)
    t.start()
    return t


@pytest.mark.parametrize("game", ["silos", "silencio", "siliconvania"])
def test_a_whole_game_between_network_bots_and_the_servers_ai(server: Server, game: str) -> None:
    """Two bots (one of them a search, which samples from its seat's view alone) and one seat of the server's AI."""
    with Client(server.url) as c:
        made = c.create(game, players=3, seats=[{"kind": "invite"}, {"kind": "invite"}, {"kind": "ai", "ai": "easy"}],
                        options={})
        links = [i["url"] for i in made.invites]
        results: dict[int, BotResult] = {}
        threads = [_bot_thread(server.url, links[0], "random", game, results),
                   _bot_thread(server.url, links[1], "ismcts:iters=8", game, results)]
        for t in threads:
            t.join(timeout=600)
        assert not any(t.is_alive() for t in threads), "the bots did not finish their game"
        info = c.info(made.game_id)
        assert info["status"] == "over"
        assert [s["bot"] for s in info["seats"]] == [True, True, False]
        record = c.record(made.game_id)
        assert set(results) == {0, 1}
        for seat, result in results.items():
            assert result.final["status"] == "over"
            assert result.sent > 3, f"seat {seat} sent {result.sent} decisions"
            # only a race can be refused: the picture it decided on was overtaken (another seat's bid ahead)
            assert all(r.startswith("stale") for r in result.refused), result.refused
        assert len(record["actions"]) >= results[0].sent + results[1].sent


def test_a_bots_seat_is_marked_at_the_table_and_in_the_lobby(server: Server) -> None:
    with Client(server.url) as c:
        made = c.create("silos", players=3, seats=[{"kind": "creator"}, {"kind": "invite"},
                                                   {"kind": "ai", "ai": "easy"}], name="Ann")
        bot = c.claim_invite(made.invites[0]["url"], name="robo")
        assert [s["bot"] for s in c.info(made.game_id)["seats"]] == [False, False, False]
        assert bot.mark_bot() == {"seat": 1, "bot": True}
        assert bot.mark_bot()["bot"] is True  # idempotent
        seats = c.info(made.game_id)["seats"]
        assert [s["bot"] for s in seats] == [False, True, False]
        assert seats[1]["kind"] == "human" and seats[1]["ai"] is None and seats[2]["ai"] == "easy"
        listed = [g for g in c.lobby() if g["id"] == made.game_id]
        assert listed and [s["bot"] for s in listed[0]["seats"]] == [False, True, False]
        with pytest.raises(ApiError) as no_token:
            c.request("POST", f"/api/games/{made.game_id}/bot")
        assert no_token.value.status == 401
        # the creator re-seats it: the mark goes with the token
        c.request("POST", f"/api/games/{made.game_id}/reseat", token=made.creator_token, json={"seat": 1})
        assert [s["bot"] for s in c.info(made.game_id)["seats"]] == [False, False, False]


def _pair(c: Client, game: str = "silencio") -> tuple[Seat, Seat, str]:
    made = c.create(game, players=2, seats=[{"kind": "creator"}, {"kind": "invite"}],
                    options={"first_player": 1} if game == "silencio" else {})
    ann = c.seat(made.game_id, made.token)
    bot = c.claim_invite(made.invites[0]["url"], name="bot")
    bot.mark_bot()
    return ann, bot, made.game_id


def test_a_bot_sending_illegal_stale_or_garbage_gets_clear_refusals_and_the_game_goes_on(server: Server) -> None:
    with Client(server.url) as c:
        _ann, bot, game_id = _pair(c)
        state = bot.state()
        assert state["owes_decision"]
        with pytest.raises(ApiError) as illegal:
            bot.act("fly away", state["seq"])
        assert illegal.value.status == 422 and illegal.value.legal == state["legal"]
        with pytest.raises(ApiError) as stale:
            bot.act(state["legal"][0], state["seq"] + 5)
        assert stale.value.status == 409
        with pytest.raises(ApiError) as garbage:
            c.request("POST", f"/api/games/{game_id}/actions", token=bot.token, content=b"\x00not json",
                      headers={"Content-Type": "application/json"})
        assert garbage.value.status == 400 and "parsing the body" in garbage.value.detail
        with pytest.raises(ApiError) as wrong_type:
            c.request("POST", f"/api/games/{game_id}/actions", token=bot.token, json={"action": 7, "seq": "x"})
        assert wrong_type.value.status == 422
        assert bot.state()["seq"] == state["seq"], "a refusal changes nothing"
        bot.act(state["legal"][0], state["seq"])  # and the game goes on
        assert bot.state()["seq"] > state["seq"]


class _Flaky:
    """An agent that first answers garbage, then an illegal action, then a legal one, each decision."""

    name = "flaky"

    def __init__(self) -> None:
        self.calls = 0

    def act(self, seat: Any) -> Action:
        self.calls += 1
        legal = seat.legal_actions()
        if self.calls % 3 == 1:
            return "\x00garbage"  # type: ignore[return-value]
        if self.calls % 3 == 2:
            return "play nothing"  # type: ignore[return-value]
        return legal[-1]  # type: ignore[no-any-return]


def test_run_bot_reports_refusals_and_asks_again_so_the_game_goes_on(server: Server) -> None:
    with Client(server.url) as c:
        ann, bot, game_id = _pair(c, "silos")
        flaky = _Flaky()
        me = make_agent("random", "silos", seed=1)  # (loads the games before the bot's thread reads them)
        done: dict[str, BotResult] = {}
        lines: list[str] = []
        t = threading.Thread(target=lambda: done.setdefault("r", run_bot(bot, flaky, say=lines.append,
                                                                         idle_timeout=60)), daemon=True)
        t.start()
        with Client(server.url) as c2:
            mine = c2.seat(game_id, ann.token)
            deadline = time.monotonic() + 300
            while time.monotonic() < deadline:
                state = mine.state()
                if state["status"] == "over":
                    break
                if state["owes_decision"]:
                    handle = RemoteSeat("silos", 2, {}, 0, state["view"], mine.log(0)["entries"], state["legal"])
                    try:
                        mine.act(me.act(handle).text, state["seq"])
                    except ApiError as e:
                        assert e.status == 409  # the bot moved first: stale, try again
                else:
                    time.sleep(0.02)
        t.join(timeout=60)
        result = done["r"]
        assert result.final["status"] == "over"
        assert result.sent > 3 and len(result.refused) == 2 * result.sent
        assert any("illegal" in line for line in lines)


def test_a_bot_that_disconnects_is_played_for_by_the_clock(server: Server) -> None:
    with Client(server.url) as c:
        made = c.create("silencio", players=2, seats=[{"kind": "invite"}, {"kind": "ai", "ai": "easy"}],
                        options={"first_player": 0}, move_seconds=1)
        bot = c.claim_invite(made.invites[0]["url"], name="gone")
        bot.mark_bot()
        # the bot is at the table on its socket, and moves once over it
        updates = bot.updates(timeout=30)
        first = next(m for m in updates if m.get("type") == "state")
        assert first["owes_decision"] and first["legal"]
        bot.send({"type": "act", "action": first["legal"][0], "seq": first["seq"], "client_action_id": "bot-0"})
        acked = next(m for m in updates if m.get("type") in ("ack", "refused"))
        assert acked["type"] == "ack", acked
        moved = c.info(made.game_id)["seq"]
        updates.close()  # then the bot's connection drops, mid-game, and it never comes back
        assert updates.closed  # its socket is closed; the seat stays the bot's
        # the move clock plays for the silent seat (1 s a move), and the AI plays on
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and c.info(made.game_id)["seq"] < moved + 3:
            time.sleep(0.2)
        assert c.info(made.game_id)["seq"] >= moved + 3
        notices = [m["text"] for m in c.messages(made.game_id)["messages"] if m.get("kind") == "notice"]
        assert any("ran out of time" in t for t in notices), notices


def test_the_command_plays_a_whole_game_and_refuses_bad_arguments(server: Server, tmp_path: Path,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    agent_file = tmp_path / "mybot.py"
    agent_file.write_text(
        "class FirstBot:\n    name = 'first'\n    def act(self, seat):\n        return seat.legal_actions()[0]\n")
    with Client(server.url) as c:
        made = c.create("silos", players=2, seats=[{"kind": "invite"}, {"kind": "ai", "ai": "easy"}])
        code = main(["bot", "--server", server.url, "--join", made.invites[0]["url"], "--agent",
                     f"{agent_file}:FirstBot", "--quiet"])
        out = capsys.readouterr().out
        assert code == 0 and "over" in out and "0 refused" in out
        assert c.info(made.game_id)["seats"][0]["bot"] is True
    assert main(["bot", "--server", server.url]) == 2
    assert "--join" in capsys.readouterr().err
    assert main(["bot", "--server", server.url, "--join", "https://elsewhere.example/join/abc#def"]) == 2
    assert "not --server" in capsys.readouterr().err
    assert main(["bot", "--server", server.url, "--join", made.invites[0]["url"], "--agent", "nosuch"]) == 2


def test_the_example_bot_plays_a_whole_game(server: Server, capsys: pytest.CaptureFixture[str]) -> None:
    example = Path(__file__).parents[2] / "examples" / "bot.py"
    with Client(server.url) as c:
        made = c.create("silencio", players=2, seats=[{"kind": "invite"}, {"kind": "ai", "ai": "easy"}])
        assert main(["bot", "--server", server.url, "--join", made.invites[0]["url"], "--agent",
                     f"{example}:GreedyBot", "--quiet"]) == 0
        assert "over" in capsys.readouterr().out
        info = c.info(made.game_id)
        assert info["status"] == "over" and info["seats"][0]["bot"] is True


def test_python_examples_bot_py_link_plays_a_whole_game_as_its_own_process(server: Server, tmp_path: Path) -> None:
    """`python examples/bot.py LINK`, exactly as docs/bots.md says to run it: a process of its own at the table."""
    example = Path(__file__).parents[2] / "examples" / "bot.py"
    assert len(example.read_text().splitlines()) <= 45, "the example stays about 30 lines of code"
    with Client(server.url) as c:
        made = c.create("silencio", players=2, seats=[{"kind": "invite"}, {"kind": "ai", "ai": "easy"}])
        done = subprocess.run([sys.executable, str(example), made.invites[0]["url"]], capture_output=True,
                              text=True, timeout=300, cwd=tmp_path)
        assert done.returncode == 0, done.stderr[-3000:]
        assert done.stdout.strip().splitlines()[-1] == "over", done.stdout[-2000:]
        info = c.info(made.game_id)
        assert info["status"] == "over" and info["seats"][0]["bot"] is True
        assert info["seats"][0]["name"].startswith("greedy"), info["seats"][0]
        assert len(c.record(made.game_id)["actions"]) > 5


def test_a_shipped_trained_policy_plays_a_whole_game_as_a_network_bot(server: Server,
                                                                      capsys: pytest.CaptureFixture[str]) -> None:
    with Client(server.url) as c:
        made = c.create("silos", players=2, seats=[{"kind": "invite"}, {"kind": "ai", "ai": "easy"}])
        assert main(["bot", "--server", server.url, "--join", made.invites[0]["url"], "--agent", "policy:silos-2p",
                     "--quiet"]) == 0
        out = capsys.readouterr().out
        assert "over" in out and "0 refused" in out, out
        info = c.info(made.game_id)
        assert info["status"] == "over" and info["seats"][0]["bot"] is True
        assert len(c.record(made.game_id)["actions"]) > 20
