"""The commands around the tables: chips, the admins' grants, hand lookup and rules."""

from __future__ import annotations

from typing import Any

import discord

from render.style import MINUS
from tests.cogs.helpers import Scene, an_admin


async def chips(scene: Scene, member: Any) -> int:
    return int(await scene.bot.services.storage.players.balance(scene.guild.id, member.id))


async def test_daily_bonus_once_a_day_and_the_balance_follows(scene: Scene) -> None:
    ann = scene.members[0]
    before = await chips(scene, ann)
    first = await ann.slash(scene.channel, "daily")
    bonus = await chips(scene, ann) - before
    assert bonus > 0 and first.response.content == (
        f"Daily bonus collected: you now have **{before + bonus:,}** chips."
    )
    second = await ann.slash(scene.channel, "daily")
    assert second.acknowledged and not second.response.content.startswith("Daily bonus")
    assert await chips(scene, ann) == before + bonus
    shown = await ann.slash(scene.channel, "balance")
    assert shown.response.content == f"<@{ann.id}> has **{before + bonus:,}** chips."
    await scene.env.advance_time(24 * 3600 + 1)
    third = await ann.slash(scene.channel, "daily")
    assert third.response.content == (
        f"Daily bonus collected: you now have **{before + 2 * bonus:,}** chips."
    )
    assert await chips(scene, ann) == before + 2 * bonus


async def test_only_server_managers_grant_or_take_chips(scene: Scene) -> None:
    ann, bob = scene.members[:2]
    start = await chips(scene, ann)
    # Discord hides /chips from Bob; a server that shows it to him anyway still gets a refusal.
    commands = await scene.bot.tree.fetch_commands(guild=discord.Object(scene.guild.id))
    scene.guild.set_command_permissions(next(c for c in commands if c.name == "chips"), {bob: True})
    refused = await bob.slash(scene.channel, "chips grant", player=ann, amount=500)
    assert refused.ephemeral
    assert refused.response.content == "Only members who may manage this server can do that."
    assert await chips(scene, ann) == start
    role = scene.guild.create_role("croupier", permissions=discord.Permissions(manage_guild=True))
    boss = scene.guild.add_member(scene.env.create_user("boss"), roles=[role])
    granted = await boss.slash(scene.channel, "chips grant", player=ann, amount=500, note="prize")
    assert granted.response.content == f"Granted 500 chips to <@{ann.id}>: now {start + 500:,}."
    took = await boss.slash(scene.channel, "chips take", player=ann, amount=200, note="fix")
    assert took.response.content == f"Took 200 chips from <@{ann.id}>: now {start + 300:,}."
    assert await chips(scene, ann) == start + 300
    too_much = await boss.slash(scene.channel, "chips take", player=ann, amount=10**9)
    assert too_much.response.content and await chips(scene, ann) == start + 300


async def test_evaluate_names_and_draws_a_hand_or_says_what_is_wrong(scene: Scene) -> None:
    ann = scene.members[0]
    named = await ann.slash(scene.channel, "evaluate", cards="As Ks Qs Js Ts")
    assert named.response.content == "**Royal flush** (straight flush, 5 cards)."
    assert named.response.attachments
    wrong = await ann.slash(scene.channel, "evaluate", cards="As Zz")
    assert wrong.acknowledged and wrong.response.content and not wrong.response.attachments


async def test_rules_list_the_games_and_explain_one(scene: Scene) -> None:
    ann = scene.members[0]
    every = await ann.slash(scene.channel, "rules")
    assert "Showdown" in every.response.content and "Pai Gow" in every.response.content
    assert every.response.content.splitlines()[-1] == (
        "`/rules game:` shows one's rules, page by page."
    )
    one = await ann.slash(scene.channel, "rules", game="casino")
    [card] = one.response.embeds
    assert card.title == "Casino Version: How a game goes" and "fold" in card.description


async def test_status_cancel_and_kick_through_the_table_commands(scene: Scene) -> None:
    ann, bob, cy = scene.members[:3]
    accounts = scene.bot.services.storage.players
    assert (await ann.slash(scene.channel, "table create", game="showdown")).acknowledged
    for member in (bob, cy):
        assert (await member.slash(scene.channel, "table join")).acknowledged
    before = {m.id: await accounts.balance(scene.guild.id, m.id) for m in (ann, bob, cy)}
    status = await bob.slash(scene.channel, "table status")
    seated = f"<@{ann.id}>, <@{bob.id}>, <@{cy.id}>"
    assert status.response.content.split("\n")[:2] == [
        f"**Showdown Version**, ante 10, host <@{ann.id}>.",
        f"Seated (3/6): {seated}.",
    ]
    # Only the host removes a player.
    refused = await bob.slash(scene.channel, "table kick", player=cy)
    assert refused.ephemeral and await the_seated(scene) == {ann.id, bob.id, cy.id}
    await ann.slash(scene.channel, "table start")
    during = {m.id: await accounts.balance(scene.guild.id, m.id) for m in (ann, bob, cy)}
    assert all(during[m.id] < before[m.id] for m in (ann, bob, cy))  # the antes are held
    status = await cy.slash(scene.channel, "table status")
    assert status.response.content.split("\n")[3] == f"Waiting for: {seated}."
    # A stranger may not cancel; the host's cancel mid-game gives every escrowed chip back.
    stranger = await scene.members[3].slash(scene.channel, "table cancel")
    assert (
        stranger.ephemeral
        and await scene.tables.table(scene.guild.id, scene.channel.id) is not None
    )
    cancelled = await ann.slash(scene.channel, "table cancel")
    assert (
        cancelled.acknowledged
        and await scene.tables.table(scene.guild.id, scene.channel.id) is None
    )
    for member in (ann, bob, cy):
        assert await accounts.balance(scene.guild.id, member.id) == before[member.id]
    said = [m.content for m in scene.channel.history()]
    assert "Game 1 was cancelled; 30 chips went back." in said, said


async def the_seated(scene: Scene) -> set[int]:
    table = await scene.tables.table(scene.guild.id, scene.channel.id)
    return set(table.players) if table is not None else set()


async def test_an_admin_reads_the_ledger_of_the_server_or_of_a_player(scene: Scene) -> None:
    ann, bob = scene.members[:2]
    boss = an_admin(scene)
    await boss.slash(scene.channel, "chips grant", player=ann, amount=500, note="prize")
    await boss.slash(scene.channel, "chips take", player=bob, amount=20, note="x" * 80)
    rows = await scene.bot.services.storage.players.ledger(scene.guild.id)
    when = [f"<t:{int(row.created.timestamp())}:f>" for row in rows]
    shown = await boss.slash(scene.channel, "chips ledger")
    assert shown.ephemeral
    assert shown.response.content == "\n".join(
        [
            "The ledger of this server: the latest 4 rows, newest first.",
            f"`#{rows[0].id}` {when[0]} <@{bob.id}> {MINUS}20 (take): take by admin {boss.id}: "
            + "x" * (60 - len(f"take by admin {boss.id}: ") - 1)
            + "…",
            f"`#{rows[1].id}` {when[1]} <@{bob.id}> +1,000 (starting): starting chips",
            f"`#{rows[2].id}` {when[2]} <@{ann.id}> +500 (grant): grant by admin {boss.id}: prize",
            f"`#{rows[3].id}` {when[3]} <@{ann.id}> +1,000 (starting): starting chips",
        ]
    )
    mine = await boss.slash(scene.channel, "chips ledger", player=ann, rows=1)
    assert mine.response.content == "\n".join(
        [
            f"The ledger of <@{ann.id}>'s balance: the latest 1 row, newest first.",
            f"`#{rows[2].id}` {when[2]} <@{ann.id}> +500 (grant): grant by admin {boss.id}: prize",
        ]
    )
    nobody = await boss.slash(scene.channel, "chips ledger", player=scene.members[2])
    assert (
        nobody.response.content == f"No chip has moved on <@{scene.members[2].id}>'s balance yet."
    )
    # Discord hides /chips from players; one shown it anyway is refused.
    commands = await scene.bot.tree.fetch_commands(guild=discord.Object(scene.guild.id))
    scene.guild.set_command_permissions(next(c for c in commands if c.name == "chips"), {bob: True})
    refused = await bob.slash(scene.channel, "chips ledger")
    assert refused.response.content == "Only members who may manage this server can do that."
