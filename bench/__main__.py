"""``python -m bench`` (``make bench``): every figure beside a floor measured in the same run.

1. Start (bench/start.py): ``gateway-tui`` launched as a whole process on a pty, to the first
   frame with instances, against a demo gateway with 100 instances in a process of its own;
   floor: a bare Textual app (Header + DataTable + Footer) to its first frame.
2. Instances at 10,000 (bench/tables.py): response bytes → table interactive, one filter
   keystroke → frame, a page down → frame, peak RSS; once with 1.7.1's rows, once (2b) with
   2.x's flat rows (``demo-server --api-version 2.3.6``).
3. Participants at 1,024 (bench/tables.py): response bytes → table interactive, and from opening
   the screen; filter keystroke → frame.
4. Client overhead (bench/client.py): GatewayClient call → model against a bare httpx GET of the
   same URL (p50, p99); floor: a raw socket request.
5. A million instances (bench/big_list.py, ``bigread``): the longest event-loop gap (what holds a
   frame back) while fetchInstances reads 1,000,000 instances; floor: a bare httpx GET of them.
6. Campaign (bench/campaign.py): 10,000 recipients at full speed, sends per second beside a bare
   client loop of the same calls; peak RSS at 10,000 beside 1,000 recipients.
7. Chats at 10,000 and 8. a conversation of 100,000 messages (bench/chats.py): response bytes →
   interactive, filter keystroke, first screen, page up/down, peak RSS; floors: json.loads of
   the same bytes, the bare app's page key and RSS.
9. Live events (bench/live.py): a conversation of 10,000 messages open, the demo gateway in this
   process: socket event → frame with its bubble beside a bare socket.io client's receipt of it;
   HTTP requests per minute while the socket is up beside the same app on its instances list
   (which polls); RSS after 10,000 events (and after a minute of 1,000 a second) beside before;
   key → frame during the flood beside the bare app's page key.
10. Fleet (bench/fleet.py): 20 demo gateways × 500 instances on the fleet screen: launch → first
   frame with every row beside the bare app; HTTP requests per minute at rest; peak RSS.
11. Event monitor (bench/events.py, headless in this process): socket event → monitor row
   beside a bare socket.io client; keys answered and RSS over a minute at 1,000 events a second.
12. A flood of new chats (bench/flood.py): the chats screen open while the demo gateway emits
   a new message into a new chat 1,000 times a second: key → frame during it (median, worst)
   beside the same keys at rest, RSS after beside before, chats arrived beside chats emitted.

The machines this runs on are shared and noisy: each figure is the median of at least 5 runs
(``--runs``), and the ratio to a floor measured in the same run is the figure that counts. The
table is printed and written to bench/RESULTS.md with the date, machine and versions. Nothing here
is a test, and the test suite has no timed assertions.
"""

from __future__ import annotations

import argparse
import sys
import time

from bench import big_list, campaign, chats, client, events, fleet, flood, live, start, tables
from bench._proc import DemoGatewayProcess
from bench.report import Report

SECTIONS = (
    "start",
    "instances",
    "instances2",
    "participants",
    "client",
    "bigread",
    "campaign",
    "chats",
    "conversation",
    "live",
    "events",
    "fleet",
    "flood",
)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench", description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7, help="runs per figure (at least 5)")
    parser.add_argument(
        "--only",
        metavar="SECTION",
        action="append",
        choices=SECTIONS,
        help=f"run only these sections ({', '.join(SECTIONS)}); RESULTS.md is then not written",
    )
    args = parser.parse_args(argv)
    if args.runs < 5:
        parser.error("--runs must be at least 5")
    sections = args.only or list(SECTIONS)
    report = Report()
    began = time.monotonic()
    print(f"gateway-tui benchmarks: {args.runs} runs per figure; figure | floor, ratio, target\n")
    with DemoGatewayProcess(instances=100) as demo:
        if "start" in sections:
            start.run(report, args.runs, demo.url, demo.api_key)
        if "instances" in sections:
            with DemoGatewayProcess(instances=10_000) as big:
                tables.run_instances(report, args.runs, big.url, big.api_key)
        if "instances2" in sections:
            with DemoGatewayProcess(10_000, "--api-version", "2.3.6") as big:
                tables.run_instances(report, args.runs, big.url, big.api_key, line="2.x")
        if "participants" in sections:
            tables.run_participants(report, args.runs, demo.url, demo.api_key)
        if "client" in sections:
            client.run(report, demo.url, demo.api_key)
        if "bigread" in sections:
            big_list.run(report, args.runs)
        if "campaign" in sections:
            campaign.run(report, demo.url, demo.api_key)
    # Each with a demo gateway of its own (the chat store's knobs).
    if "chats" in sections:
        chats.run_chats(report, args.runs)
    if "conversation" in sections:
        chats.run_conversation(report, args.runs)
    if "live" in sections:
        live.run(report, args.runs)
    if "events" in sections:
        events.run(report, args.runs)
    if "fleet" in sections:
        fleet.run(report, args.runs)
    if "flood" in sections:
        flood.run(report, args.runs)
    print(f"\n{time.monotonic() - began:.0f} s")
    if args.only:
        print("(a partial run: bench/RESULTS.md left as it was; its rows as markdown:)\n")
        print(report.table())
    else:
        report.write(args.runs)
    return 0


if __name__ == "__main__":
    sys.exit(main())
