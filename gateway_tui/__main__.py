from gateway_tui.cli.parser import main

raise SystemExit(main())
