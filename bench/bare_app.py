"""The floor of the start and keystroke benchmarks: a bare Textual app, Header + DataTable +
Footer, with rows like the instances table's. Run as ``python -m bench.bare_app``."""

from textual.app import App, ComposeResult
from textual.widgets import DataTable, Footer, Header

BARE_ROWS = 100
FIRST_ROW_TEXT = "bare-row-00000"


def bare_rows(count: int) -> list[tuple[str, ...]]:
    return [
        (
            f"bare-row-{index:05d}",
            ("open", "close", "connecting")[index % 3],
            f"+49 151 {index:08d}",
            f"Profile {index}",
            "WHATSAPP-BAILEYS",
        )
        for index in range(count)
    ]


class BareApp(App[None]):
    def __init__(self, rows: int = BARE_ROWS) -> None:
        super().__init__()
        self._row_count = rows

    def compose(self) -> ComposeResult:
        yield Header()
        yield DataTable(cursor_type="row")
        yield Footer()

    def on_mount(self) -> None:
        table = self.query_one(DataTable)
        table.add_columns("Name", "Status", "Owner", "Profile name", "Integration")
        table.add_rows(bare_rows(self._row_count))
        table.focus()


if __name__ == "__main__":
    BareApp().run()
