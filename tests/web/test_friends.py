"""Friends in /play (issue 50): two browsers become friends, each sees the other online, one
challenges the other with a target of its choosing, the other accepts, and both land at the
same started table; the one who leaves is seen offline. The invitation link is made and shown
ready to copy."""

from __future__ import annotations

import re
from collections.abc import Callable

from playwright.sync_api import expect

from tests.web.conftest import Player
from tests.web.helpers import match_view, sign_in

# Whether Pia's friends list (over REST, with the page's token) shows this friend offline.
OFFLINE = """async (id) => {
  const { friends } = await (await import("./api.js")).call("GET", "/v1/friends");
  return friends.some((f) => f.id === id && !f.online);
}"""


def test_a_friend_online_is_challenged_and_both_land_at_the_table(
    players: Callable[..., Player],
) -> None:
    pia, quinn = players(), players()
    asker = pia.open("friends")
    sign_in(asker, "Pia")
    expect(asker.locator("h2")).to_have_text("Friends")
    friend = quinn.open("friends")
    sign_in(friend, "Quinn")
    expect(friend.locator("h2")).to_have_text("Friends")

    asker.fill("#friend-name", "Quinn")
    asker.click("button:text('Add friend')")
    expect(asker.locator(".friend-requests")).to_contain_text("Asked Quinn")
    request = friend.locator(".friend-request", has_text="Pia asks to be friends")
    request.locator("button:text('Accept')").click()  # shown by `friend_request`, live
    quinn_row = asker.locator(".friend", has_text="Quinn")
    expect(quinn_row).to_have_attribute("data-online", "true")  # `friend_added`, live
    expect(friend.locator(".friend", has_text="Pia")).to_have_attribute("data-online", "true")
    pia.shot("friends-online")

    asker.click("button:text('Make an invitation link')")
    link = asker.locator("#invite-link")
    expect(link).to_have_value(re.compile(re.escape(f"{pia.base_url}/play/#invite/") + r"\S{16,}"))
    expect(asker.locator("button:text('Copy the link')")).to_be_visible()

    asker.fill("#challenge-target", "50")
    quinn_row.locator("button:text('Challenge')").click()
    incoming = friend.locator(".challenge-in", has_text="Pia challenges you")
    expect(incoming).to_contain_text("to 50")  # `challenge_received`, live
    quinn.shot("friends-challenged")
    incoming.locator("button:text('Accept')").click()

    expect(friend).to_have_url(re.compile(r"#/match/"))
    expect(asker).to_have_url(friend.url)  # told by `challenge_closed`, live
    for page in (asker, friend):
        expect(page.locator(".hand .tile").first).to_be_visible()
        view = match_view(page)
        assert view["status"] == "playing" and view["ruleset"]["target"] == 50
    assert {match_view(p)["you"]["seat"] for p in (asker, friend)} == {0, 1}
    pia.shot("friends-challenge-table")

    # Quinn leaves (no socket of Quinn's is open any more): once the lease runs out, the server's
    # presence pass marks Quinn offline in Pia's list.
    quinn_id = friend.evaluate("""async () => (await import("./api.js")).identity().id""")
    friend.close()
    asker.wait_for_function(OFFLINE, arg=quinn_id, polling=200)
