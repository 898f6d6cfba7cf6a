// sparseprof report: draws the charts described by the page's JSON (script#sparseprof-data) with
// the Apache ECharts build inlined above, and makes every table.sortable sortable by a click on its
// header. No network: everything the page needs is in the page. Each chart's element gets
// data-rendered="N" (its SVG marks) so a headless browser can check that it drew.
(function () {
  'use strict';
  var data = JSON.parse(document.getElementById('sparseprof-data').textContent);
  var PALETTE = ['#1f77b4', '#d62728', '#2ca02c', '#9467bd', '#ff7f0e', '#17becf', '#8c564b', '#e377c2', '#7f7f7f', '#bcbd22'];
  var LEVEL_COLORS = ['#2ca02c', '#9467bd', '#ff7f0e', '#8c564b', '#17becf'];

  function sig3(v) {
    var a = Math.abs(v);
    if (a >= 99.95) return v.toFixed(0);
    if (a >= 9.995) return v.toFixed(1);
    if (a >= 0.9995 || a === 0) return v.toFixed(2);
    return v.toPrecision(3);
  }

  // Three significant digits in the unit that keeps the number in [1, 1000): 439 us, 1.20 ms.
  function fmtTime(s) {
    if (s === null || !isFinite(s)) return '-';
    if (s === 0) return '0 s';
    var units = ['s', 'ms', 'us', 'ns'];
    var v = s;
    var u = 0;
    while (u < units.length - 1 && Math.abs(v) < 0.9995) { v *= 1e3; u++; }
    return sig3(v) + ' ' + units[u];
  }

  // Log-axis ticks without exponents: 0.01, 0.1, 1, 10, 100, 1000, 10k.
  function fmtLog(v) {
    if (v >= 1e4) return sig3(v / 1e3) + 'k';
    if (v >= 1) return String(Math.round(v));
    return String(Number(v.toPrecision(2)));
  }

  function esc(s) {
    return String(s).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  }

  // Static exports for documents: SVG (the renderer's own output) and PNG (that SVG drawn at 2x).
  function toolbox() {
    return { right: 10, feature: {
      saveAsImage: { title: 'save as SVG', name: 'sparseprof-chart' },
      myPng: { show: true, title: 'save as PNG', icon: 'path://M4,4H28V28H4Z M8,20L14,12L19,18L22,15L26,20Z',
        onclick: function (model, api) { savePng(echarts.getInstanceByDom(api.getDom())); } }
    } };
  }

  function savePng(chart) {
    if (!chart) return;
    var img = new Image();
    img.onload = function () {
      var canvas = document.createElement('canvas');
      canvas.width = img.width * 2;
      canvas.height = img.height * 2;
      var g = canvas.getContext('2d');
      g.fillStyle = '#fff';
      g.fillRect(0, 0, canvas.width, canvas.height);
      g.drawImage(img, 0, 0, canvas.width, canvas.height);
      var a = document.createElement('a');
      a.download = 'sparseprof-chart.png';
      a.href = canvas.toDataURL('image/png');
      a.click();
    };
    img.src = chart.getDataURL({ type: 'svg' });
  }

  function roofline(c) {
    var series = [];
    var top = 0;
    c.ceilings.forEach(function (k) { top = Math.max(top, k.tflops); });
    var main = c.diagonals[c.diagonals.length - 1];
    c.diagonals.forEach(function (d, i) {
      var isMain = d === main;
      var ridge = top / d.tbps;
      var pts = ridge > c.xMin ? [[c.xMin, d.tbps * c.xMin], [Math.min(ridge, c.xMax), Math.min(top, d.tbps * c.xMax)]]
                               : [[c.xMin, top]];
      if (isMain) pts.push([c.xMax, top]);
      series.push({ name: d.name + ' ' + sig3(d.tbps) + ' TB/s', type: 'line', data: pts, symbol: 'none',
        lineStyle: { width: isMain ? 3 : 2, type: isMain ? 'solid' : 'dashed', color: isMain ? '#d62728' : LEVEL_COLORS[i % LEVEL_COLORS.length] },
        itemStyle: { color: isMain ? '#d62728' : LEVEL_COLORS[i % LEVEL_COLORS.length] },
        endLabel: { show: !isMain, formatter: d.name, color: '#333' }, tooltip: { show: false }, z: 2 });
    });
    c.ceilings.forEach(function (k) {
      var start = Math.max(c.xMin, k.tflops / main.tbps);
      series.push({ name: k.name + ' ' + sig3(k.tflops) + ' TFLOP/s', type: 'line', data: [[start, k.tflops], [c.xMax, k.tflops]],
        symbol: 'none', lineStyle: { width: k.tflops === top ? 3 : 2, type: k.tflops === top ? 'solid' : 'dashed', color: '#333' },
        itemStyle: { color: '#333' }, endLabel: { show: true, formatter: k.name, color: '#333' }, tooltip: { show: false }, z: 2 });
    });
    c.overheads.forEach(function (o) {
      series.push({ name: o.name, type: 'line', data: [[c.xMin, o.tflops], [c.xMax, o.tflops]], symbol: 'none',
        lineStyle: { width: 2, type: 'dotted', color: '#7f7f7f' }, itemStyle: { color: '#7f7f7f' },
        endLabel: { show: true, formatter: o.label, color: '#555' }, tooltip: { show: false }, z: 1 });
    });
    c.points.forEach(function (g, i) {
      series.push({ name: g.name, type: 'scatter', symbolSize: 11, z: 5,
        itemStyle: { color: g.color || PALETTE[i % PALETTE.length], borderColor: '#fff', borderWidth: 1 },
        data: g.items.map(function (p) { return { value: [p.ai, p.tflops], p: p }; }),
        label: { show: true, position: 'right', fontSize: 10, formatter: function (q) { return q.data.p.layer; } },
        labelLayout: { hideOverlap: true } });
    });
    return {
      animation: false, color: PALETTE, toolbox: toolbox(),
      title: { text: c.title, subtext: c.subtitle, left: 'center' },
      legend: { top: 52, type: 'scroll' },
      grid: { left: 80, right: 210, top: 100, bottom: 60 },
      tooltip: { trigger: 'item', formatter: function (q) {
        var p = q.data.p;
        return '<b>' + esc(p.layer) + '</b><br>format ' + esc(p.format) + '<br>time ' + fmtTime(p.seconds)
          + '<br>bottleneck ' + esc(p.bottleneck) + '<br>' + sig3(p.ai) + ' FLOP/byte, ' + sig3(p.tflops) + ' TFLOP/s';
      } },
      xAxis: { type: 'log', name: 'FLOP per DRAM byte', nameLocation: 'middle', nameGap: 32, min: c.xMin, max: c.xMax,
        axisLabel: { formatter: fmtLog }, splitLine: { show: true, lineStyle: { color: '#eee' } } },
      yAxis: { type: 'log', name: 'TFLOP/s', min: c.yMin, max: c.yMax, axisLabel: { formatter: fmtLog },
        splitLine: { show: true, lineStyle: { color: '#eee' } } },
      series: series
    };
  }

  function waterfallOption(c, w) {
    var cats = ['dense', 'ideal'];
    var base = [0, 0];
    var vals = [w.dense, w.ideal];
    var colors = ['#1f77b4', '#7f7f7f'];
    var run = w.ideal;
    w.parts.forEach(function (p) {
      cats.push(p[0]);
      var v = p[1];
      base.push(v >= 0 ? run : run + v);
      vals.push(Math.abs(v));
      colors.push(v >= 0 ? '#d62728' : '#2ca02c');
      run += v;
    });
    cats.push('predicted');
    base.push(0);
    vals.push(w.predicted);
    colors.push('#333');
    var signed = [w.dense, w.ideal].concat(w.parts.map(function (p) { return p[1]; })).concat([w.predicted]);
    var unit = 1e6;
    return {
      animation: false, toolbox: toolbox(),
      title: { text: c.title, subtext: w.layer + ' (' + w.format + ')' + (w.note ? ': ' + w.note : ''), left: 'center' },
      grid: { left: 80, right: 40, top: 90, bottom: 50 },
      tooltip: { trigger: 'axis', axisPointer: { type: 'shadow' }, formatter: function (qs) {
        var i = qs[0].dataIndex;
        return esc(cats[i]) + ': ' + (i >= 2 && i < cats.length - 1 && signed[i] > 0 ? '+' : '') + fmtTime(signed[i]);
      } },
      xAxis: { type: 'category', data: cats, axisLabel: { interval: 0 } },
      yAxis: { type: 'value', name: 'time (us)', axisLabel: { formatter: function (v) { return sig3(v); } } },
      series: [
        { type: 'bar', stack: 'w', silent: true, itemStyle: { color: 'transparent' }, data: base.map(function (b) { return b * unit; }) },
        { type: 'bar', stack: 'w', barWidth: '55%',
          data: vals.map(function (v, i) { return { value: v * unit, itemStyle: { color: colors[i] } }; }),
          label: { show: true, position: 'top', formatter: function (q) {
            var i = q.dataIndex;
            return (i >= 2 && i < cats.length - 1 && signed[i] > 0 ? '+' : '') + fmtTime(signed[i]);
          } } }
      ]
    };
  }

  function barsOption(c, g) {
    var unit = c.unit === 's' ? 1e6 : 1;
    var fmt = c.unit === 's' ? fmtTime : function (v) { return sig3(v) + '%'; };
    return {
      animation: false, color: PALETTE, toolbox: toolbox(),
      title: { text: c.title + (g.name ? ': ' + g.name : ''), subtext: c.subtitle || '', left: 'center' },
      legend: { top: 52 },
      grid: { left: 80, right: 40, top: 90, bottom: 230 },
      tooltip: { trigger: 'axis', axisPointer: { type: 'shadow' }, formatter: function (qs) {
        var s = '<b>' + esc(qs[0].name) + '</b>';
        qs.forEach(function (q) {
          var raw = g.series[q.seriesIndex].values[q.dataIndex];
          var extra = g.series[q.seriesIndex].notes ? ' (' + esc(g.series[q.seriesIndex].notes[q.dataIndex]) + ')' : '';
          s += '<br>' + q.marker + esc(q.seriesName) + ': ' + (raw === null ? 'n/a' : fmt(raw)) + extra;
        });
        return s;
      } },
      xAxis: { type: 'category', data: g.categories, axisLabel: { interval: 0, rotate: 60, fontSize: 10 } },
      yAxis: { type: 'value', name: c.unit === 's' ? 'time (us)' : c.axis, min: 0, max: c.unit === '%' ? 100 : null,
        axisLabel: { formatter: function (v) { return sig3(v); } } },
      series: g.series.map(function (s) {
        return { name: s.name, type: 'bar', data: s.values.map(function (v) { return v === null ? null : v * unit; }) };
      })
    };
  }

  function curvesOption(c) {
    return {
      animation: false, color: PALETTE, toolbox: toolbox(),
      title: { text: c.title, subtext: c.subtitle || '', left: 'center' },
      legend: { top: 52, type: 'scroll' },
      grid: { left: 80, right: 40, top: 100, bottom: 60 },
      tooltip: { trigger: 'item', formatter: function (q) {
        var x = c.xName ? esc(c.xName) + ' ' + sig3(q.value[0]) + (c.xUnit || '') : sig3(q.value[0]) + '% sparsity';
        return esc(q.seriesName) + '<br>' + x + ': ' + sig3(q.value[1]) + 'x over dense';
      } },
      xAxis: c.xName ? { type: 'value', name: c.xName, nameLocation: 'middle', nameGap: 32, scale: true }
        : { type: 'value', name: 'sparsity (%)', nameLocation: 'middle', nameGap: 32, min: c.xMin, max: c.xMax },
      yAxis: { type: 'value', name: 'speedup over dense (x)', axisLabel: { formatter: function (v) { return sig3(v); } } },
      series: c.series.map(function (s, i) {
        var line = { name: s.name, type: 'line', data: s.points, symbolSize: 8,
          label: { show: true, fontSize: 10, formatter: function (q) { return sig3(q.value[1]) + 'x'; } } };
        if (i === 0) {
          line.markLine = { silent: true, symbol: 'none', lineStyle: { color: '#333', type: 'dashed' },
            label: { formatter: 'dense (1x)' }, data: [{ yAxis: 1 }] };
        }
        return line;
      })
    };
  }

  function marks(el) {
    return el.querySelectorAll('svg path, svg rect, svg circle, svg polyline').length;
  }

  function draw(el, option) {
    var chart = echarts.getInstanceByDom(el) || echarts.init(el, null, { renderer: 'svg' });
    chart.setOption(option, true);
    el.setAttribute('data-rendered', String(marks(el)));
    el.setAttribute('data-series', String(chart.getOption().series.length));
    return chart;
  }

  function picker(c, el, labels, onPick) {
    var box = document.createElement('div');
    box.className = 'picker';
    var label = document.createElement('label');
    label.textContent = c.pick + ' ';
    var sel = document.createElement('select');
    labels.forEach(function (l, i) {
      var o = document.createElement('option');
      o.value = String(i);
      o.textContent = l;
      sel.appendChild(o);
    });
    sel.value = String(c.initial || 0);
    sel.addEventListener('change', function () { onPick(Number(sel.value)); });
    label.appendChild(sel);
    box.appendChild(label);
    el.parentNode.insertBefore(box, el);
  }

  data.charts.forEach(function (c) {
    var el = document.getElementById(c.id);
    if (c.kind === 'roofline') draw(el, roofline(c));
    else if (c.kind === 'curves') draw(el, curvesOption(c));
    else if (c.kind === 'waterfall') {
      var show = function (i) { draw(el, waterfallOption(c, c.layers[i])); };
      picker(c, el, c.layers.map(function (w) { return w.layer; }), show);
      show(c.initial || 0);
    } else if (c.kind === 'bars') {
      var showGroup = function (i) { draw(el, barsOption(c, c.groups[i])); };
      if (c.groups.length > 1) picker(c, el, c.groups.map(function (g) { return g.name; }), showGroup);
      showGroup(0);
    }
  });
  window.addEventListener('resize', function () {
    data.charts.forEach(function (c) {
      var chart = echarts.getInstanceByDom(document.getElementById(c.id));
      if (chart) chart.resize();
    });
  });

  // Sortable tables: a click on a header sorts by that column (numbers by data-v), again reverses.
  Array.prototype.forEach.call(document.querySelectorAll('table.sortable'), function (table) {
    var heads = table.tHead.rows[0].cells;
    Array.prototype.forEach.call(heads, function (th, col) {
      th.addEventListener('click', function () {
        var body = table.tBodies[0];
        var rows = Array.prototype.slice.call(body.rows);
        var asc = th.getAttribute('data-sort') !== 'asc';
        Array.prototype.forEach.call(heads, function (h) { h.removeAttribute('data-sort'); });
        th.setAttribute('data-sort', asc ? 'asc' : 'desc');
        rows.sort(function (a, b) {
          var x = a.cells[col], y = b.cells[col];
          var vx = x.getAttribute('data-v'), vy = y.getAttribute('data-v');
          var r = vx !== null && vy !== null ? Number(vx) - Number(vy) : x.textContent.localeCompare(y.textContent);
          return asc ? r : -r;
        });
        rows.forEach(function (r) { body.appendChild(r); });
      });
    });
  });
  document.body.setAttribute('data-ready', 'true');
})();
