from gateway_tui.cli import main

raise SystemExit(main())
