"""The router tree, in order; the fallback router is the last to take updates."""

from __future__ import annotations

from aiogram import Router

from bot.routers import (
    commands,
    daily,
    errors,
    fallback,
    identity,
    invite,
    lobby,
    members,
    migrate,
    play,
    practice,
    records,
    reviews,
    settings,
)


def make_root_router() -> Router:
    root = Router(name="root")
    root.include_routers(
        identity.make_router(),  # first: a message signed by no person never reaches the rest
        lobby.make_router(),
        play.make_router(),
        settings.make_router(),  # before commands: its own g/s presses, /language's are theirs
        commands.make_router(),
        practice.make_router(),
        daily.make_router(),
        records.make_router(),
        reviews.make_router(),
        invite.make_router(),
        members.make_router(),
        migrate.make_router(),
        fallback.make_router(),
        errors.make_router(),  # errors propagate to every router's handlers, wherever they are
    )
    return root
