from gateway_tui.main import main

raise SystemExit(main())
